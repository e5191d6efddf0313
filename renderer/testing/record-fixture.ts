/**
 * Hand-made records for component tests: small enough to check every number by hand.
 *
 * Events (ms since start): 5.0 role-only chunk · 12.3456 "Hel" (1 tok) · 32.3456 "lo" (1) ·
 * 52.3456 " wor" + " ld" coalesced in one read (2 events) · 60 usage · 60 [DONE].
 */
import type { RequestRecord } from '../../shared/record.ts';
import { EV_COALESCED, EV_CONTENT, EV_FINISH, EV_TERMINAL, EV_USAGE } from '../../shared/request.ts';
import type { RequestError } from '../../shared/errors.ts';

export function handMadeRecord(patch: Partial<RequestRecord> = {}): RequestRecord {
  const t = [5, 12.3456, 32.3456, 52.3456, 52.3456, 60, 60];
  const flags = [
    0,
    EV_CONTENT,
    EV_CONTENT,
    EV_CONTENT | EV_COALESCED,
    EV_CONTENT | EV_COALESCED | EV_FINISH,
    EV_USAGE | EV_COALESCED,
    EV_TERMINAL | EV_COALESCED,
  ];
  const tokens = [0, 1, 1, 1, 1, 0, 0];
  const text = ['', 'Hel', 'lo', ' wor', 'ld', '', ''];
  const raw = [
    '{"choices":[{"delta":{"role":"assistant"}}]}',
    '{"choices":[{"delta":{"content":"Hel"}}]}',
    '{"choices":[{"delta":{"content":"lo"}}]}',
    '{"choices":[{"delta":{"content":" wor"}}]}',
    '{"choices":[{"delta":{"content":"ld"},"finish_reason":"length"}]}',
    '{"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}',
    '[DONE]',
  ];
  return {
    id: 'req-1',
    url: 'http://127.0.0.1:8000/v1/chat/completions',
    dialect: 'openai-chat',
    model: 'tokenscope-sim',
    startedAtWall: Date.UTC(2025, 0, 1, 12, 0, 0),
    phases: { connectedMs: 0.8, requestWrittenMs: 1.1, headersMs: 4.2, firstByteMs: 5, endMs: 61.5 },
    status: 200,
    contentType: 'text/event-stream',
    serverRequestId: null,
    events: {
      n: t.length,
      t: Float64Array.from(t),
      tokens: Uint32Array.from(tokens),
      read: Uint32Array.from([0, 1, 2, 3, 3, 3, 3]),
      flags: Uint16Array.from(flags),
      size: Uint32Array.from(raw.map((r) => r.length)),
      text,
    },
    raw,
    text: text.join(''),
    reasoning: '',
    finishReason: 'length',
    usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
    tokenSource: 'usage-total',
    bytes: 512,
    reads: 4,
    terminated: true,
    error: null,
    ...patch,
  };
}

export const HTTP_ERROR: RequestError = {
  kind: 'http',
  code: 'status',
  message: 'HTTP 400 Bad Request',
  status: 400,
  body: '{"object":"error","message":"max_tokens is too large","code":400}',
  atMs: 4.2,
};
