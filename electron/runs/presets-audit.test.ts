/**
 * The audit's cases (issue 22) as fixtures: wire bytes through the engine's own decoder
 * (stream-decoder.ts, one read per SSE block at a chosen time), then each preset's outcome beside
 * the numbers its tool's client would report — written here from the tools' source, not from
 * definitions.ts:
 * - vLLM: vllm/benchmarks/lib/endpoint_request_func.py (commit 02cfb534)
 *   `async_request_openai_chat_completions` / `_completions` — a token chunk is any data line with
 *   non-empty `choices`; latency ends at the last one; usage is read only from a chunk without
 *   `choices`; `json.loads` raising fails the request; and vllm/benchmarks/serve.py
 *   `calculate_metrics` re-tokenizes the text when no usage was read.
 * - SGLang: python/sglang/bench_serving.py — chat reads `delta.content` only, completions
 *   `choices[0].text`; latency at the last line read ([DONE] included); output length from usage,
 *   else the requested length.
 * - AIPerf: src/aiperf/transports/sse_utils.py (no [DONE] needed; `event: error` / an `error` object
 *   fails), common/models `get_json()` → None for a line that is not JSON (skipped by
 *   endpoints/openai_chat.py `parse_response`), metrics/types/ttft_metric.py and
 *   request_latency_metric.py (first and last *content* response).
 */
import { describe, expect, it } from 'vitest';
import type { DialectId } from '../../shared/dialects.ts';
import { newRecord } from '../../shared/record.ts';
import { outcomeUnder, type DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { recordToLineWithStats } from '../../shared/runs/file/record-line.ts';
import type { RequestOutcome } from '../../shared/runs/summary/outcome.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { getDialect } from '../engine/dialects/index.ts';
import { StreamDecoder } from '../engine/stream-decoder.ts';
import { readCorpus } from '../testing/framing-corpus.ts';

const enc = new TextEncoder();
const PRESETS: DefinitionsId[] = ['tokenscope', 'vllm', 'sglang', 'aiperf'];

/** SSE blocks, block i read alone at times[i] ms; the body ends at `endMs`. */
function lineOf(
  dialect: DialectId,
  blocks: readonly string[],
  times: readonly number[],
  o: { endMs?: number; cut?: 'reset'; expected?: number } = {},
): RunRequestLine {
  const rec = newRecord({
    id: 'r',
    url: 'http://fixture',
    dialect,
    model: 'm',
    startedAtWall: 0,
    phases: { connectedMs: 1, requestWrittenMs: 2, headersMs: 5, firstByteMs: times[0] ?? null, endMs: null },
    status: 200,
  });
  const sd = new StreamDecoder(getDialect(dialect), rec);
  blocks.forEach((b, i) => sd.pushRead(enc.encode(b), times[i]!, i));
  const end = o.endMs ?? times[times.length - 1]!;
  if (o.cut === 'reset') {
    sd.end(end, blocks.length);
    rec.error = { kind: 'network', code: 'reset', message: 'socket hang up', atMs: end };
  } else {
    sd.end(end, blocks.length);
    rec.error ??= sd.endError(end);
  }
  rec.phases.endMs = end;
  sd.finalize();
  return recordToLineWithStats(rec, {
    seq: 0,
    warmup: false,
    scheduledMs: 0,
    arrivedMs: 0,
    startedMs: 0,
    inputTokensEstimate: 10,
    expectedOutputTokens: o.expected ?? null,
    saveText: false,
  }).line;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usageChunk = (n: number): string =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: n, total_tokens: 10 + n } })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE = chunk({ role: 'assistant', content: '' });

const under = (l: RunRequestLine, d: DefinitionsId, dialect: DialectId = 'openai-chat'): RequestOutcome =>
  outcomeUnder(l, d, dialect);
const okUnder = (l: RunRequestLine, dialect: DialectId = 'openai-chat') =>
  Object.fromEntries(PRESETS.map((p) => [p, under(l, p, dialect).ok]));

describe('multi-token chunks without per-event counts (vLLM --stream-interval 4, include_usage)', () => {
  // role 10 · "a" 30 · 4 tokens at 70, 110, 150 · finish-only 151 · usage 13 at 152 · [DONE] 153
  const l = lineOf(
    'openai-chat',
    [
      ROLE,
      chunk({ content: 'a' }),
      chunk({ content: 'b c d e' }),
      chunk({ content: 'f g h i' }),
      chunk({ content: 'j k l m' }),
      chunk({}, 'length'),
      usageChunk(13),
      DONE,
    ],
    [10, 30, 70, 110, 150, 151, 152, 153],
  );

  it('vLLM: TTFT at the role chunk, every choices gap, latency at the finish chunk, N from usage', () => {
    const o = under(l, 'vllm');
    expect(o).toMatchObject({
      ok: true,
      ttftMs: 10,
      e2eMs: 151,
      outputTokens: 13,
      tokenSource: 'usage-total',
    });
    expect(o.itlChunkMs).toEqual([20, 40, 40, 40, 1]);
    expect(o.tpotMs).toBeCloseTo((151 - 10) / 12, 12);
  });

  it('SGLang: TTFT at the first text, text gaps, latency at [DONE]', () => {
    const o = under(l, 'sglang');
    expect(o).toMatchObject({ ok: true, ttftMs: 30, e2eMs: 153, outputTokens: 13 });
    expect(o.itlChunkMs).toEqual([40, 40, 40]);
    expect(o.tpotMs).toBeCloseTo((153 - 30) / 12, 12);
  });

  it('AIPerf: first and last content response (the finish-only and usage-only chunks carry no data)', () => {
    const o = under(l, 'aiperf');
    expect(o).toMatchObject({ ok: true, ttftMs: 30, e2eMs: 150, outputTokens: 13 });
    expect(o.itlTokenMs).toEqual([(150 - 30) / 12]);
  });
});

describe('faults', () => {
  const text = [ROLE, chunk({ content: 'a' }), chunk({ content: 'b c d e' }), chunk({ content: 'f g h i' })];
  const t = [10, 30, 70, 110];

  it('malformed JSON mid-stream: vLLM and SGLang fail (json.loads raises), AIPerf skips the line', () => {
    const l = lineOf(
      'openai-chat',
      [...text.slice(0, 2), 'data: {"choices": [\n\n', ...text.slice(2), usageChunk(9), DONE],
      [10, 30, 50, 70, 110, 111, 112],
    );
    expect(l.error?.code).toBe('bad-json');
    expect(okUnder(l)).toEqual({ tokenscope: false, vllm: false, sglang: false, aiperf: true });
    const a = under(l, 'aiperf');
    expect(a).toMatchObject({ ttftMs: 30, e2eMs: 110, outputTokens: 9 });
    expect(a.itlChunkMs).toEqual([40, 40]);
  });

  it('no [DONE]: a success for vLLM, SGLang and AIPerf; latency to the last content / line', () => {
    const l = lineOf('openai-chat', [...text, usageChunk(9)], [...t, 111]);
    expect(l.error?.code).toBe('truncated');
    expect(okUnder(l)).toEqual({ tokenscope: false, vllm: true, sglang: true, aiperf: true });
    expect(under(l, 'aiperf')).toMatchObject({ ttftMs: 30, e2eMs: 110 });
    expect(under(l, 'sglang')).toMatchObject({ ttftMs: 30, e2eMs: 111 });
    expect(under(l, 'vllm')).toMatchObject({ ttftMs: 10, e2eMs: 110, outputTokens: 9 });
  });

  it('an in-band error after multi-token chunks: vLLM succeeds with no usage read, its count labelled estimated', () => {
    const err = `data: ${JSON.stringify({ error: { message: 'boom', type: 'InternalServerError', code: 500 } })}\n\n`;
    const l = lineOf('openai-chat', [...text, err, DONE], [...t, 120, 121]);
    expect(okUnder(l)).toEqual({ tokenscope: false, vllm: true, sglang: true, aiperf: false });
    // vLLM re-tokenizes "a b c d e f g h i" (9 tokens); without the server's tokenizer the
    // count is Tokenscope's one per event (3), and says so.
    const v = under(l, 'vllm');
    expect(v).toMatchObject({ outputTokens: 3, tokenSource: 'estimated' });
    // With the server's count of the text (POST /tokenize after the run): vLLM's number.
    const counted = under({ ...l, tokenizedOutputTokens: 9 }, 'vllm');
    expect(counted).toMatchObject({ outputTokens: 9, tokenSource: 'usage-total', tokenizedByServer: true });
    expect(counted.tpotMs).toBeCloseTo((110 - 10) / 8, 12);
  });

  it('a reset mid-stream fails under every preset', () => {
    const l = lineOf('openai-chat', text, t, { endMs: 115, cut: 'reset' });
    expect(okUnder(l)).toEqual({ tokenscope: false, vllm: false, sglang: false, aiperf: false });
  });

  it('an empty first content chunk: the first token for vLLM only', () => {
    const l = lineOf(
      'openai-chat',
      [ROLE, chunk({ content: '' }), ...text.slice(1), usageChunk(9), DONE],
      [10, 20, 30, 70, 110, 111, 112],
    );
    expect(PRESETS.map((p) => under(l, p).ttftMs)).toEqual([30, 10, 30, 30]);
  });
});

describe('a reasoning model (vLLM `delta.reasoning_content`)', () => {
  // role 10 · reasoning 30, 50 · answer 170, 190 · usage 4 · [DONE]
  const l = lineOf(
    'openai-chat',
    [
      ROLE,
      chunk({ reasoning_content: 'hmm' }),
      chunk({ reasoning_content: ' ok' }),
      chunk({ content: 'Hi' }),
      chunk({ content: '!' }),
      usageChunk(4),
      DONE,
    ],
    [10, 30, 50, 170, 190, 191, 192],
  );

  it('SGLang reads delta.content only: TTFT at the answer, not at the first reasoning token', () => {
    const o = under(l, 'sglang');
    expect(o).toMatchObject({ ok: true, ttftMs: 170, e2eMs: 192, outputTokens: 4 });
    expect(o.itlChunkMs).toEqual([20]);
    expect(o.tpotMs).toBeCloseTo((192 - 170) / 3, 12);
  });

  it('vLLM (role chunk), AIPerf and Tokenscope (reasoning is content) start earlier', () => {
    expect(PRESETS.map((p) => under(l, p).ttftMs)).toEqual([30, 10, 170, 30]);
  });
});

describe('llama.cpp completions: usage rides on a `choices` chunk (corpus llamacpp-v1-completions.sse)', () => {
  const bytes = new TextDecoder().decode(readCorpus('llamacpp-v1-completions.sse'));
  const blocks = bytes.split(/(?<=\n\n)/).filter((b) => b.trim() !== '');
  const l = lineOf(
    'openai-completions',
    blocks,
    blocks.map((_, i) => 10 * (i + 1)),
  );

  it('Tokenscope reads that usage; vLLM never does: its count is the re-tokenized text, else labelled estimated', () => {
    expect(under(l, 'tokenscope', 'openai-completions')).toMatchObject({
      outputTokens: 8,
      tokenSource: 'usage-total',
    });
    expect(under(l, 'vllm', 'openai-completions').tokenSource).toBe('estimated');
    expect(under({ ...l, tokenizedOutputTokens: 9 }, 'vllm', 'openai-completions')).toMatchObject({
      outputTokens: 9,
      tokenizedByServer: true,
    });
  });
});
