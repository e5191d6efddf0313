/**
 * The corpus through the engine's own path (stream-decoder.ts → request record → request stats):
 * checks that what the dialects say adds up to the right token source, output count and error
 * class (docs/ARCHITECTURE.md "tokens per event", "Errors").
 */
import { describe, expect, it } from 'vitest';
import type { DialectId } from '../../../shared/dialects.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import { newRecord, type RequestRecord } from '../../../shared/record.ts';
import type { TokenSource } from '../../../shared/request.ts';
import { computeRequestStats } from '../../../shared/stats/request-stats.ts';
import { readCorpus } from '../../testing/framing-corpus.ts';
import { StreamDecoder } from '../stream-decoder.ts';
import { getDialect } from './index.ts';
import { CORPUS_DIALECT, replay } from '../../testing/dialect-replay.ts';

function record(dialect: DialectId): RequestRecord {
  return newRecord({
    id: 't',
    url: 'http://corpus',
    dialect,
    model: 'm',
    startedAtWall: 0,
    phases: { connectedMs: 0, requestWrittenMs: 0, headersMs: 0, firstByteMs: 0, endMs: null },
    status: 200,
  });
}

/** One byte per read, read i at t = i ms: every event gets its own arrival time. */
function fire(file: string) {
  const id = CORPUS_DIALECT[file]!;
  const rec = record(id);
  const sd = new StreamDecoder(getDialect(id), rec);
  const bytes = readCorpus(file);
  for (let i = 0; i < bytes.length; i++) sd.pushRead(bytes.subarray(i, i + 1), i, i);
  sd.end(bytes.length, bytes.length);
  rec.error ??= sd.endError(bytes.length);
  rec.phases.endMs = bytes.length;
  sd.finalize();
  return { rec, stats: computeRequestStats(rec) };
}

type Row = [file: string, source: TokenSource, tokens: number, error: ErrorCode | null];

// Token sources by docs/ARCHITECTURE.md: per-event where the server counts each event (vLLM continuous
// usage, TGI, llama.cpp), else the final usage total, else 1 per content event (estimated).
const ROWS: Row[] = [
  ['vllm-chat.sse', 'estimated', 9, null],
  ['vllm-chat-include-usage.sse', 'usage-total', 10, null], // 9 text chunks + EOS
  ['vllm-chat-continuous-usage.sse', 'per-event', 8, null],
  ['vllm-error-midstream.sse', 'estimated', 3, 'error-event'],
  ['vllm-legacy-v0.6-error-midstream.sse', 'estimated', 1, 'error-event'],
  ['sglang-chat.sse', 'estimated', 9, null],
  ['sglang-chat-include-usage.sse', 'usage-total', 10, null],
  ['sglang-error-midstream.sse', 'estimated', 1, 'error-event'],
  ['tgi-chat.sse', 'estimated', 9, null],
  ['tgi-chat-include-usage.sse', 'usage-total', 10, null],
  ['tgi-chat-keepalive.sse', 'estimated', 2, null],
  ['tgi-chat-error-midstream.sse', 'estimated', 1, 'error-event'],
  ['llamacpp-chat.sse', 'estimated', 6, null],
  ['llamacpp-chat-include-usage.sse', 'usage-total', 7, null],
  ['llamacpp-chat-timings-per-token.sse', 'estimated', 6, null],
  ['llamacpp-error-midstream.sse', 'estimated', 1, 'error-event'],
  ['ollama-v1-chat.sse', 'estimated', 5, null],
  ['ollama-v1-chat-include-usage.sse', 'usage-total', 6, null],
  ['openai-chat-completions.sse', 'estimated', 17, null],
  ['vllm-completions.sse', 'estimated', 16, null],
  ['vllm-completions-include-usage.sse', 'usage-total', 16, null],
  ['llamacpp-v1-completions.sse', 'usage-total', 8, null],
  ['ollama-v1-completions-include-usage.sse', 'usage-total', 4, null],
  ['openai-responses.sse', 'usage-total', 16, null], // 14 delta events, 16 output tokens
  ['openai-responses-error.sse', 'estimated', 0, 'error-event'],
  ['vllm-responses-excerpt.sse', 'estimated', 3, 'truncated'],
  ['anthropic-messages.sse', 'usage-total', 6, null], // 3 text deltas, output_tokens 6
  ['anthropic-messages-tool-use.sse', 'usage-total', 65, null], // 2 text + 4 input_json deltas
  ['anthropic-error-midstream.sse', 'estimated', 1, 'error-event'], // message_start's 1 is no count
  ['tgi-generate-stream.sse', 'per-event', 8, null],
  ['tgi-generate-stream-error.sse', 'per-event', 1, 'error-event'],
  ['tgi-generate-stream-overloaded.sse', 'estimated', 0, 'error-event'],
  ['llamacpp-completion.sse', 'per-event', 8, null],
  ['llamacpp-legacy-error-field.sse', 'estimated', 1, 'truncated'], // `error:` dropped, no stop:true
  ['ollama-api-generate.ndjson', 'usage-total', 8, null],
  ['ollama-api-chat.ndjson', 'usage-total', 10, null],
  ['ollama-api-chat-thinking.ndjson', 'usage-total', 7, null],
  ['ollama-api-generate-error-midstream.ndjson', 'estimated', 4, 'error-event'],
];

describe('corpus through the engine', () => {
  it('covers every mapped corpus file', () => {
    expect(ROWS.map((r) => r[0]).sort()).toEqual(Object.keys(CORPUS_DIALECT).sort());
  });

  for (const [file, source, tokens, error] of ROWS) {
    it(`${file}: ${source}, ${tokens} tokens, ${error ?? 'clean end'}`, () => {
      const { rec, stats } = fire(file);
      expect(stats.tokenSource).toBe(source);
      expect(stats.outputTokens).toBe(tokens);
      expect(rec.error?.code ?? null).toBe(error);
      if (error === null) expect(rec.terminated).toBe(true);
      const r = replay(file);
      expect(rec.text).toBe(r.text);
      expect(rec.reasoning).toBe(r.reasoning);
    });
  }

  it('keeps a role-only first chunk as the first event, not the TTFT', () => {
    const { rec, stats } = fire('vllm-chat.sse');
    expect(stats.firstEventMs).toBe(rec.events.t[0]);
    expect(stats.ttftMs!).toBeGreaterThan(stats.firstEventMs!);
  });

  it('reports where a truncated stream stopped', () => {
    const { rec } = fire('llamacpp-legacy-error-field.sse');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'truncated' });
    expect(rec.error!.message).toContain('stop: true');
  });
});
