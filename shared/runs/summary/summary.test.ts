import { describe, expect, it } from 'vitest';
import type { RequestOutcome } from './outcome.ts';
import { computeRunSummary } from './summary.ts';
import { maxChunksPerSecond, peakConcurrency } from './peaks.ts';
import { summaryJson } from './json.ts';
import { summaryText } from './text.ts';

const base: RequestOutcome = {
  ok: true,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs: 0,
  e2eMs: 0,
  tpotMs: 0,
  itlChunkMs: [],
  itlTokenMs: [],
  outputTokens: 0,
  inputTokens: 0,
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: null,
  errorCode: null,
};
const o = (x: Partial<RequestOutcome>): RequestOutcome => ({ ...base, ...x });

// A is METRIC-DEFINITIONS.md §4.3's worked example: TTFT 100, chunks at 140/180/220, N = 13 → TPOT 10.
const A = o({
  startMs: 0,
  ttftMs: 100,
  itlChunkMs: [40, 40, 40],
  itlTokenMs: Array(12).fill(10),
  e2eMs: 220,
  tpotMs: 10,
  outputTokens: 13,
  inputTokens: 50,
});
const B = o({
  startMs: 500,
  ttftMs: 50,
  itlChunkMs: [],
  e2eMs: 60,
  tpotMs: 0,
  outputTokens: 1,
  inputTokens: 10,
  queueMs: 5,
});
const C = o({
  ok: false,
  startMs: 100,
  ttftMs: 30,
  itlChunkMs: [10],
  e2eMs: 80,
  outputTokens: 3,
  inputTokens: 99,
  inputTokensSource: 'estimated',
  errorKind: 'server',
  errorCode: 'error-event',
});
const D = o({
  startMs: 1200,
  ttftMs: 200,
  itlChunkMs: [100],
  itlTokenMs: [100],
  e2eMs: 300,
  tpotMs: 100,
  outputTokens: 2,
  inputTokens: 20,
  tokenSource: 'estimated',
  inputTokensSource: 'estimated',
});
const config = { maxConcurrency: 4, requestRate: 'inf' as const, burstiness: 1, numPrompts: 4 };

describe('run summary, vLLM definitions', () => {
  const s = computeRunSummary({
    outcomes: [A, B, C, D],
    durationS: 2,
    config,
    slo: { ttftMs: 100, tpotMs: 50 },
  });
  const v = s.vllm;

  it('counts only successful requests in tokens and throughputs', () => {
    expect(v.completed).toBe(3);
    expect(v.failed).toBe(1);
    expect(v.total_input_tokens).toBe(80);
    expect(v.total_output_tokens).toBe(16);
    expect(v.request_throughput).toBe(1.5);
    expect(v.output_throughput).toBe(8);
    expect(v.total_token_throughput).toBe(48);
    expect(s.errors).toEqual({ 'server/error-event': 1 });
    // What the failed request got before failing is kept apart (a server's counters include it).
    expect(s.tokens.failedOutput).toBe(3);
    expect(s.tokens.failedInput).toBe(99);
    expect(s.tokens.failedInputEstimated).toBe(true); // C's prompt tokens were estimated
  });

  it('TTFT/E2E over successful requests; numpy linear percentiles; population std', () => {
    expect(v.mean_ttft_ms).toBeCloseTo(350 / 3, 12);
    expect(v.median_ttft_ms).toBe(100);
    expect(v.p99_ttft_ms).toBeCloseTo(198, 12); // sorted [50,100,200], index 1.98
    const m = 350 / 3;
    expect(v.std_ttft_ms).toBeCloseTo(Math.sqrt(((100 - m) ** 2 + (50 - m) ** 2 + (200 - m) ** 2) / 3), 12);
    expect(v.median_e2el_ms).toBe(220);
    expect(v['p99.9_e2el_ms']).toBeCloseTo(220 + 0.998 * (300 - 220), 9); // index 1.998 of [60,220,300]
  });

  it('TPOT only for N > 1; ITL pooled over every chunk gap', () => {
    expect(v.mean_tpot_ms).toBe(55);
    expect(v.p90_tpot_ms).toBeCloseTo(91, 12);
    expect(v.mean_itl_ms).toBe(55);
    expect(v.median_itl_ms).toBe(40);
    expect(v.p99_itl_ms).toBeCloseTo(98.2, 12);
    expect(s.stats.itl_per_token?.count).toBe(13);
    expect(s.stats.itl?.count).toBe(4); // C's gap is not there: it failed
  });

  it('goodput: every SLO met (≤), TPOT 0 for single-token outputs', () => {
    expect(s.goodRequests).toBe(2); // A (TTFT = SLO counts) and B; D misses TTFT
    expect(v.request_goodput).toBe(1);
    expect(computeRunSummary({ outcomes: [A], durationS: 1, config }).vllm.request_goodput).toBeNull();
  });

  it('peak concurrency by sweep line (departure before arrival at a tie); chunks per 1-s bucket', () => {
    expect(v.max_concurrent_requests).toBe(1);
    expect(
      peakConcurrency([
        { start: 0, end: 10 },
        { start: 10, end: 20 },
      ]),
    ).toBe(1);
    expect(
      peakConcurrency([
        { start: 0, end: 10 },
        { start: 5, end: 20 },
        { start: 6, end: 7 },
      ]),
    ).toBe(3);
    expect(v.max_output_tokens_per_s).toBe(5); // A's 4 chunks + B's 1 in second 0
    expect(maxChunksPerSecond([A, D])).toBe(4);
  });

  it('token sources are counted, never mixed', () => {
    expect(s.tokens.outputSource).toEqual({ 'per-event': 0, 'usage-total': 2, estimated: 1 });
    expect(s.tokens).toMatchObject({ inputFromUsage: 2, inputEstimated: 1 });
  });

  it('with nothing completed, vLLM writes 0 (np.mean(x or 0)); our stats say null', () => {
    const e = computeRunSummary({ outcomes: [C], durationS: 1, config });
    expect(e.vllm.completed).toBe(0);
    expect(e.vllm.mean_ttft_ms).toBe(0);
    expect(e.vllm.p99_itl_ms).toBe(0);
    expect(e.stats.ttft).toBeNull();
    expect(e.vllm.max_concurrent_requests).toBe(0);
  });

  it('prints like vllm bench serve and as flat JSON', () => {
    const t = summaryText(s);
    expect(t.split('\n')[0]).toBe('============ Serving Benchmark Result ============');
    expect(t).toContain('Successful requests:                     3');
    expect(t).toContain('Request goodput (req/s):                 1.00');
    expect(t).toContain('P99.9 TTFT (ms):');
    expect(t).toContain('-----Time per Output Token (excl. 1st token)------');
    const j = summaryJson(s);
    expect(j.completed).toBe(3);
    expect(j['p99_itl_ms']).toBeCloseTo(98.2, 12);
    expect(j['mean_itl_per_token_ms']).toBeCloseTo((12 * 10 + 100) / 13, 12);
  });
});

describe('pools of shared lists', () => {
  // A request's lists are often one list (one token a chunk, no coalesced gap): the summary pools
  // and sorts it once. The numbers must be those of the same values in distinct lists.
  const gaps = (seed: number): Float64Array =>
    Float64Array.from({ length: 40 }, (_, i) => ((i * 7919 + seed * 104729) % 997) / 10);
  const shared = [1, 2, 3].map((k) => {
    const g = gaps(k);
    return o({
      ttftMs: 10 * k,
      e2eMs: 500,
      tpotMs: 9,
      outputTokens: 41,
      itlChunkMs: g,
      itlTokenMs: g,
      itlChunkMeasuredMs: g,
      itlTokenMeasuredMs: g,
    });
  });
  const distinct = [1, 2, 3].map((k) =>
    o({
      ttftMs: 10 * k,
      e2eMs: 500,
      tpotMs: 9,
      outputTokens: 41,
      itlChunkMs: gaps(k),
      itlTokenMs: [...gaps(k)],
      itlChunkMeasuredMs: gaps(k),
      itlTokenMeasuredMs: [...gaps(k)],
    }),
  );
  const run = (outcomes: RequestOutcome[]) =>
    computeRunSummary({ outcomes, durationS: 2, slo: null, config: null as never });

  it('gives the same numbers as distinct lists of the same values', () => {
    const a = run(shared);
    const b = run(distinct);
    expect(a.stats).toEqual(b.stats);
    expect(a.vllm).toEqual(b.vllm);
    expect(a.stats.itl?.count).toBe(120);
    expect(a.stats.itl_per_token?.count).toBe(120);
  });

  it('keeps lists apart where one request leaves a coalesced gap out', () => {
    const g = gaps(9);
    const measured = g.slice(1);
    const mixed = [
      ...shared,
      o({
        ttftMs: 5,
        e2eMs: 500,
        tpotMs: 9,
        outputTokens: 41,
        itlChunkMs: g,
        itlTokenMs: g,
        itlChunkMeasuredMs: measured,
        itlTokenMeasuredMs: measured,
      }),
    ];
    const s = run(mixed);
    expect(s.stats.itl?.count).toBe(159);
    expect(s.stats.itl?.vllm?.count).toBe(160);
  });
});
