/**
 * Each preset's per-request rules on events where the presets disagree: a role-only first chunk,
 * a trailing usage chunk, an in-band error, a stream cut before [DONE], a stream with no text, a
 * server sending several tokens per chunk, and files written before EV_CHOICES existed.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode, ErrorKind } from '../../errors.ts';
import { EV_CHOICES, EV_ERROR, EV_FINISH, EV_TERMINAL, EV_USAGE, type Usage } from '../../request.ts';
import { C, recordOf, type Row } from '../../testing/records.ts';
import { DEFINITIONS, outcomeUnder } from './definitions.ts';
import { clientsNote } from './rederive.ts';
import { recordToLineWithStats } from '../file/record-line.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import { computeRunSummary } from './summary.ts';
import { summaryText } from './text.ts';

const CH = EV_CHOICES;

function line(
  rows: Row[],
  o: {
    usage?: Usage | null;
    error?: { kind: ErrorKind; code: ErrorCode };
    expected?: number;
    startedMs?: number;
  } = {},
): RunRequestLine {
  const rec = recordOf(rows, { usage: o.usage ?? null });
  if (o.error) rec.error = { ...o.error, message: 'x' };
  return recordToLineWithStats(rec, {
    seq: 0,
    warmup: false,
    scheduledMs: 0,
    arrivedMs: 0,
    startedMs: o.startedMs ?? 0,
    inputTokensEstimate: 10,
    expectedOutputTokens: o.expected ?? null,
    saveText: false,
  }).line;
}

const usage = (completion: number): Usage => ({
  promptTokens: 10,
  completionTokens: completion,
  totalTokens: 10 + completion,
  cachedTokens: null,
});

/**
 * vLLM-style chat: role chunk at 10, content at 30, 50, 70, finish chunk (empty delta) at 75,
 * usage chunk (no choices) at 80, [DONE] at 81.
 */
const CHAT: Row[] = [
  [10, 0, CH, 0],
  [30, 1, C | CH, 1],
  [50, 1, C | CH, 2],
  [70, 1, C | CH, 3],
  [75, 0, CH | EV_FINISH, 4],
  [80, 0, EV_USAGE, 5],
  [81, 0, EV_TERMINAL, 5],
];

describe('a vLLM-style chat stream: role chunk, finish chunk, usage chunk, [DONE]', () => {
  const l = line(CHAT, { usage: usage(3) });

  it('tokenscope: first content token, content gaps, to the end of the stream', () => {
    const o = outcomeUnder(l, 'tokenscope', 'openai-chat');
    expect(o).toMatchObject({ ok: true, ttftMs: 30, e2eMs: 81, outputTokens: 3 });
    expect(o.itlChunkMs).toEqual([20, 20]);
  });

  it('vllm: the role chunk is the first token, every choices gap counts, latency ends at the finish chunk', () => {
    const o = outcomeUnder(l, 'vllm', 'openai-chat');
    expect(o).toMatchObject({ ok: true, ttftMs: 10, e2eMs: 75, outputTokens: 3 });
    expect(o.itlChunkMs).toEqual([20, 20, 20, 5]);
    expect(o.tpotMs).toBe((75 - 10) / 2);
    expect(o.itlTokenMs).toBeNull(); // vLLM has no per-token ITL
  });

  it('sglang: first non-empty text, text gaps, latency to the last line ([DONE])', () => {
    const o = outcomeUnder(l, 'sglang', 'openai-chat');
    expect(o).toMatchObject({ ok: true, ttftMs: 30, e2eMs: 81, outputTokens: 3 });
    expect(o.itlChunkMs).toEqual([20, 20]);
  });

  it('aiperf: first content, one per-request ITL, latency to the last content response', () => {
    // request_latency_metric.py: content_responses[-1] — not the finish-only chunk (75) nor the
    // usage-only one (80).
    const o = outcomeUnder(l, 'aiperf', 'openai-chat');
    expect(o).toMatchObject({ ok: true, ttftMs: 30, e2eMs: 70, outputTokens: 3 });
    expect(o.itlTokenMs).toEqual([(70 - 30) / 2]);
    expect(o.itlChunkMs).toEqual([20, 20]);
  });
});

describe('success rules', () => {
  const midError = line(
    [
      [10, 0, CH, 0],
      [30, 1, C | CH, 1],
      [40, 0, EV_ERROR, 2],
    ],
    { error: { kind: 'server', code: 'error-event' } },
  );
  const cut = line(
    [
      [10, 0, CH, 0],
      [30, 1, C | CH, 1],
      [50, 1, C | CH, 2],
    ],
    { error: { kind: 'protocol', code: 'truncated' } },
  );
  const onlyError = line([[40, 0, EV_ERROR, 0]], { error: { kind: 'server', code: 'error-event' } });
  const reset = line([[30, 1, C | CH, 0]], { error: { kind: 'network', code: 'reset' } });

  const okUnder = (l: RunRequestLine, d: 'openai-chat' | 'openai-completions' = 'openai-chat') =>
    Object.fromEntries(
      (['tokenscope', 'vllm', 'sglang', 'aiperf'] as const).map((p) => [p, outcomeUnder(l, p, d).ok]),
    );

  it('an in-band error after content: a success for vLLM and SGLang chat, a failure elsewhere', () => {
    expect(okUnder(midError)).toEqual({ tokenscope: false, vllm: true, sglang: true, aiperf: false });
    // SGLang's completions client indexes data["choices"]: the error event raises there.
    expect(okUnder(midError, 'openai-completions').sglang).toBe(false);
  });

  it('a stream cut before [DONE]: a success for vLLM, SGLang and AIPerf (none needs the marker)', () => {
    expect(okUnder(cut)).toEqual({ tokenscope: false, vllm: true, sglang: true, aiperf: true });
    expect(outcomeUnder(cut, 'vllm', 'openai-chat')).toMatchObject({ ttftMs: 10, e2eMs: 50 });
  });

  it('no choices at all: vLLM fails it ("never received a valid chunk"), SGLang calls it a success', () => {
    expect(okUnder(onlyError)).toEqual({ tokenscope: false, vllm: false, sglang: true, aiperf: false });
    // SGLang's success without text has no first token to time.
    expect(outcomeUnder(onlyError, 'sglang', 'openai-chat').ttftMs).toBeNull();
  });

  it('a broken connection fails everywhere', () => {
    expect(okUnder(reset)).toEqual({ tokenscope: false, vllm: false, sglang: false, aiperf: false });
    expect(outcomeUnder(reset, 'vllm', 'openai-chat')).toMatchObject({
      errorKind: 'network',
      errorCode: 'reset',
    });
  });
});

describe('token counts and peaks', () => {
  it('SGLang takes the requested output length when the server sends no usage', () => {
    const l = line(CHAT.slice(0, 5).concat([[81, 0, EV_TERMINAL, 5]]), { expected: 128 });
    expect(outcomeUnder(l, 'sglang', 'openai-chat').outputTokens).toBe(128);
    expect(outcomeUnder(l, 'vllm', 'openai-chat').outputTokens).toBe(3); // Tokenscope's count
  });

  it('peak output throughput: vLLM counts chunks, Tokenscope tokens (4 tokens per chunk)', () => {
    // Two requests, each 5 chunks of 4 tokens within the first second.
    const rows: Row[] = [
      [100, 4, C | CH, 0],
      [200, 4, C | CH, 1],
      [300, 4, C | CH, 2],
      [400, 4, C | CH, 3],
      [500, 4, C | CH, 4],
      [510, 0, EV_TERMINAL, 4],
    ];
    const lines = [line(rows), line(rows, { startedMs: 50 })];
    const config = { maxConcurrency: null, requestRate: 'inf' as const, burstiness: 1, numPrompts: 2 };
    const sum = (p: 'tokenscope' | 'vllm') =>
      computeRunSummary({
        outcomes: lines.map((l) => outcomeUnder(l, p, 'openai-chat')),
        durationS: 1,
        config,
        definitions: p,
      });
    expect(sum('vllm').vllm.max_output_tokens_per_s).toBe(10);
    // All 40 tokens within the run's 0.56 s (first start 0, last end 560): a rate over that span.
    expect(sum('tokenscope').vllm.max_output_tokens_per_s).toBeCloseTo(40 / 0.56, 9);
    expect(sum('vllm').definitions).toBe('vllm');
    expect(DEFINITIONS.vllm.peak).toBe('chunks');
  });
});

describe('files written before EV_CHOICES', () => {
  it('an OpenAI event with no flags is a choices chunk (the role chunk); usage-only, errors and [DONE] are not', () => {
    const old = line([
      [10, 0, 0, 0],
      [30, 1, C, 1],
      [70, 1, C, 2],
      [80, 0, EV_USAGE, 3],
      [81, 0, EV_TERMINAL, 3],
    ]);
    const o = outcomeUnder(old, 'vllm', 'openai-chat');
    expect(o).toMatchObject({ ttftMs: 10, e2eMs: 70 });
    expect(o.itlChunkMs).toEqual([20, 40]);
  });

  it('other dialects: content and finish events stand in for choices', () => {
    const tgi = line([
      [10, 0, 0, 0],
      [30, 1, C, 1],
      [50, 1, C | EV_FINISH, 2],
    ]);
    expect(outcomeUnder(tgi, 'vllm', 'tgi')).toMatchObject({ ttftMs: 30, e2eMs: 50 });
  });
});

describe('summary text', () => {
  it('says whose definitions made the numbers, and what a server-counted input includes', () => {
    const l = line(CHAT, { usage: usage(3) });
    const o = {
      ...outcomeUnder(l, 'vllm', 'openai-chat'),
      inputTokens: 138,
      inputTokensSource: 'usage' as const,
    };
    const s = computeRunSummary({
      outcomes: [o],
      durationS: 1,
      config: { maxConcurrency: null, requestRate: 'inf', burstiness: 1, numPrompts: 1 },
      definitions: 'vllm',
    });
    const text = summaryText(s);
    expect(text).toMatch(/^Definitions:\s+vllm \(vLLM bench serve\)$/m);
    expect(text).toContain("note: the server's input count includes its chat template");
  });
});

describe('runs measured by different clients', () => {
  it('says who measured which and what it does to TTFT; nothing when one client measured all', () => {
    const note = clientsNote([{ source: 'vllm' }, { source: 'tokenscope' }]);
    expect(note).toMatch(
      /^Measured by different clients: A by vLLM’s benchmark client \(Python, aiohttp\); B by Tokenscope\. /,
    );
    expect(note).toMatch(/\+1\.9 to \+2\.9 ms on the mean TTFT/);
    expect(note).not.toMatch(/SGLang/);
    expect(
      clientsNote([{ source: 'tokenscope' }, { source: 'tokenscope' }, { source: 'tokenscope' }]),
    ).toBeNull();
    expect(clientsNote([{ source: 'vllm' }, { source: 'vllm' }])).toBeNull();
    // A Tokenscope run exported as a vLLM result was measured by Tokenscope.
    expect(clientsNote([{ source: 'tokenscope' }, { source: 'vllm', measuredBy: 'tokenscope' }])).toBeNull();
    const three = clientsNote([{ source: 'tokenscope' }, { source: 'sglang' }, { source: 'tokenscope' }]);
    expect(three).toMatch(/A, C by Tokenscope; B by SGLang’s bench_serving/);
    expect(three).toMatch(/SGLang’s client reads streams the same way; its delay was not measured\.$/);
  });
});
