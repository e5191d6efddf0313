import { describe, expect, it } from 'vitest';
import { endpointKey, matchTarget, resolveEndpoint } from './endpoint.ts';
import type { DialectId } from './dialects.ts';

const t = (id: string, baseUrl: string, dialect: DialectId = 'openai-chat') => ({
  id,
  baseUrl,
  dialect,
});

describe('endpoints', () => {
  it('a base URL gets the dialect path; a full endpoint is kept', () => {
    expect(resolveEndpoint('http://h:8000', 'openai-chat').pathname).toBe('/v1/chat/completions');
    expect(resolveEndpoint('http://h:8000/v1/', 'openai-completions').pathname).toBe('/v1/completions');
    expect(resolveEndpoint('http://h:8000/custom/chat', 'openai-chat').pathname).toBe('/custom/chat');
    expect(resolveEndpoint('https://api.anthropic.com', 'anthropic-messages').pathname).toBe('/v1/messages');
    expect(resolveEndpoint('http://h:8000/v1', 'anthropic-messages').pathname).toBe('/v1/messages');
  });

  it('one key for the spellings of one endpoint: case, default port, /v1, trailing slash, credentials', () => {
    const k = endpointKey('http://gpu:8000', 'openai-chat');
    expect(k).toBe('http://gpu:8000/v1/chat/completions');
    for (const u of [
      'HTTP://GPU:8000/',
      'http://gpu:8000/v1',
      'http://gpu:8000/v1/chat/completions/',
      'http://u:p@gpu:8000',
    ])
      expect(endpointKey(u, 'openai-chat'), u).toBe(k);
    expect(endpointKey('http://gpu:80', 'openai-chat')).toBe(endpointKey('http://gpu', 'openai-chat'));
    expect(endpointKey('https://gpu:8000', 'openai-chat')).not.toBe(k);
    expect(endpointKey('not a url', 'openai-chat')).toBeNull();
  });

  it('matches a file target to the same endpoint in the same dialect, never another', () => {
    const targets = [
      t('sim', 'http://127.0.0.1:4000'),
      t('gpu', 'http://gpu:8000/v1'),
      t('gpu-c', 'http://gpu:8000', 'openai-completions'),
    ];
    expect(matchTarget(targets, { url: 'http://gpu:8000', dialect: 'openai-chat' })?.id).toBe('gpu');
    expect(
      matchTarget(targets, { url: 'http://gpu:8000/v1/completions', dialect: 'openai-completions' })?.id,
    ).toBe('gpu-c');
    expect(matchTarget(targets, { url: 'http://gpu:8001', dialect: 'openai-chat' })).toBeNull();
    expect(matchTarget(targets, { url: 'http://127.0.0.1:4000', dialect: 'ollama-chat' })).toBeNull();
    expect(matchTarget(targets, { url: '::', dialect: 'openai-chat' })).toBeNull();
  });
});
