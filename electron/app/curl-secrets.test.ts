import { describe, expect, it } from 'vitest';
import { curlCommand } from './curl.ts';
import { specFromInput } from './requests-service.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { TargetInput } from '../../shared/api.ts';
import { ANTHROPIC_VERSION } from '../../shared/dialects.ts';

const target: ResolvedTarget = {
  id: 't',
  name: 'gpu',
  baseUrl: 'http://10.0.0.1:8000',
  dialect: 'openai-chat',
  headers: {
    'X-Team': 'infra',
    'X-Sig': 'sig-12345678',
    Cookie: 'sid=abcdefgh',
    'X-My-Token': 'tok-12345678',
  },
  secretHeaderNames: ['X-Sig'],
  apiKey: 'sk-live-0000000',
  insecureTls: false,
};
const input = { targetId: 't', model: 'm', prompt: 'hi' };

describe('secrets in copied commands and other hosts', () => {
  it('Copy as curl redacts marked and secret-named headers, and never writes the key', () => {
    const c = curlCommand(input, target);
    for (const secret of ['sig-12345678', 'sid=abcdefgh', 'tok-12345678', 'sk-live-0000000'])
      expect(c).not.toContain(secret);
    expect(c).toContain("'X-Sig: <redacted>'");
    expect(c).toContain("'Cookie: <redacted>'");
    expect(c).toContain("'X-Team: infra'");
    expect(c).toContain('$TOKENSCOPE_API_KEY');
  });

  it('Copy as curl sends the key as the dialect wants it: Bearer, or x-api-key with anthropic-version', () => {
    expect(curlCommand(input, target)).toContain('-H "Authorization: Bearer $TOKENSCOPE_API_KEY"');
    const c = curlCommand(input, { ...target, headers: {}, dialect: 'anthropic-messages' });
    expect(c).toContain("'http://10.0.0.1:8000/v1/messages'");
    expect(c).toContain('-H "x-api-key: $TOKENSCOPE_API_KEY"');
    expect(c).toContain(`-H 'anthropic-version: ${ANTHROPIC_VERSION}'`);
    expect(c).not.toMatch(/authorization|bearer|sk-live/i);
    expect(c).toContain('"max_tokens":4096');
    // Without a key: no key header, the version still.
    const noKey = curlCommand(input, {
      ...target,
      headers: {},
      apiKey: undefined,
      dialect: 'anthropic-messages',
    });
    expect(noKey).not.toContain('x-api-key');
    expect(noKey).toContain('anthropic-version');
  });

  it('an endpointUrl on another host gets neither the key nor the secret headers', () => {
    const same = specFromInput({ ...input, endpointUrl: 'http://10.0.0.1:8000/v1/completions' }, target);
    expect(same.apiKey).toBe('sk-live-0000000');
    expect(same.headers!['X-Sig']).toBe('sig-12345678');
    const other = specFromInput(
      { ...input, endpointUrl: 'https://elsewhere.example/v1/chat/completions' },
      target,
    );
    expect(other.apiKey).toBeUndefined();
    expect(other.headers).toEqual({ 'X-Team': 'infra' });
  });

  it('a key or header value with a character no HTTP header can carry is refused with a clear message', () => {
    const r = TargetInput.safeParse({
      name: 'x',
      baseUrl: 'http://h',
      dialect: 'openai-chat',
      apiKey: 'sk-“quoted”',
    });
    expect(r.success).toBe(false);
    if (!r.success)
      expect(r.error.issues[0]!.message).toMatch(
        /The API key contains "“" \(U\+201C\) at position 4, which cannot be sent in an HTTP header/,
      );
    const h = TargetInput.safeParse({
      name: 'x',
      baseUrl: 'http://h',
      dialect: 'openai-chat',
      headers: { 'X-A': 'ok\u0000' },
    });
    expect(h.success).toBe(false);
  });
});
