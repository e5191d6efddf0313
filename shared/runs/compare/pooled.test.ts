import { describe, expect, it } from 'vitest';
import { bootstrapRun, diffInterval, outcomesFromCounts } from './bootstrap.ts';
import { compareRows } from './compare.ts';
import { compareIntervals } from './intervals.ts';
import { poolRuns, repeatSpread, spreadText } from './pooled.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunSummary } from '../summary/schema.ts';
import { computeRunSummary } from '../summary/summary.ts';

const base = outcomesFromCounts(1, 0)[0]!;

/** A repeat: n requests, each started at i·gap ms with the given TTFT/E2E and 4 gaps of `itl` ms. */
function repeat(n: number, ttft: number, itl: number, gap = 10, failed = 0) {
  const outcomes: RequestOutcome[] = Array.from({ length: n }, (_, i) => ({
    ...base,
    ok: i >= failed,
    startMs: i * gap,
    ttftMs: ttft + i,
    e2eMs: ttft + i + 4 * itl,
    tpotMs: itl,
    outputTokens: 5,
    itlChunkMs: [itl, itl, itl, itl],
  }));
  const summary = computeRunSummary({
    outcomes,
    durationS: (n * gap + ttft + 4 * itl) / 1000,
    config: { maxConcurrency: null, requestRate: null, burstiness: null, numPrompts: n } as never,
  });
  return { header: null, summary, outcomes };
}

describe('poolRuns', () => {
  it('is the summary of every request at once, durations added, peaks never across repeats', () => {
    const a = repeat(20, 50, 10);
    const b = repeat(30, 80, 12, 10, 3);
    const p = poolRuns([a, b]);
    expect(p.strata).toEqual([20, 30]);
    expect(p.summary.vllm.completed).toBe(20 + 27);
    expect(p.summary.vllm.failed).toBe(3);
    expect(p.summary.vllm.duration).toBeCloseTo(a.summary.vllm.duration + b.summary.vllm.duration, 12);
    expect(p.summary.vllm.total_output_tokens).toBe(
      a.summary.vllm.total_output_tokens + b.summary.vllm.total_output_tokens,
    );
    expect(p.summary.vllm.output_throughput).toBeCloseTo(
      p.summary.vllm.total_output_tokens / (a.summary.vllm.duration + b.summary.vllm.duration),
      12,
    );
    // The pooled quantiles are those of the concatenated requests.
    const direct = computeRunSummary({
      outcomes: [...a.outcomes, ...b.outcomes],
      durationS: 1,
      config: {} as never,
    });
    expect(p.summary.stats.ttft!.p99).toBe(direct.stats.ttft!.p99);
    expect(p.summary.stats.itl!.median).toBe(direct.stats.itl!.median);
    // Both repeats start at 0: shifted, their requests never overlap in the peak sweep.
    expect(p.summary.vllm.max_concurrent_requests).toBe(
      Math.max(a.summary.vllm.max_concurrent_requests!, b.summary.vllm.max_concurrent_requests!),
    );
  });

  it('the spread: per repeat, mean, sample sd, range and CV', () => {
    const s = (tput: number) =>
      ({
        ...repeat(10, 50, 10).summary,
        vllm: { ...repeat(10, 50, 10).summary.vllm, output_throughput: tput },
      }) as RunSummary;
    const rows = repeatSpread([s(100), s(110), s(120)]);
    const t = rows.find((r) => r.id === 'out-tput')!;
    expect(t.values).toEqual([100, 110, 120]);
    expect(t.mean).toBeCloseTo(110, 12);
    expect(t.sd).toBeCloseTo(10, 12);
    expect([t.min, t.max]).toEqual([100, 120]);
    expect(t.cv).toBeCloseTo(10 / 110, 12);
    const text = spreadText(rows);
    expect(text).toMatch(/^Run-to-run spread \(3 repeats\)\n/);
    expect(text).toMatch(
      /Output token throughput\s+100\.0 tok\/s\s+110\.0 tok\/s\s+120\.0 tok\/s\s+110\.0 tok\/s\s+10\.00 tok\/s\s+9\.1 %/,
    );
  });
});

describe('stratified resampling of pooled repeats', () => {
  it('keeps each repeat’s size in every replicate', () => {
    // Repeat 1 all failed, repeat 2 all fine: resampled within each, every replicate's failure
    // share is exactly one half; resampled as one pool, it varies.
    const outcomes = [...outcomesFromCounts(0, 10), ...outcomesFromCounts(10, 0)];
    const spec = [{ metric: 'failed' as const, stat: 'mean' as const }];
    const strat = bootstrapRun(outcomes, spec, { replicates: 200, strata: [10, 10] }).replicates.get(
      'failed:mean',
    )!;
    expect(new Set(strat)).toEqual(new Set([0.5]));
    const flat = bootstrapRun(outcomes, spec, { replicates: 200 }).replicates.get('failed:mean')!;
    expect(new Set(flat).size).toBeGreaterThan(3);
    expect(diffInterval(strat, strat, 'absolute')).toEqual([0, 0]);
  });

  it('compareIntervals resamples a pooled run within its repeats', () => {
    const a = poolRuns([repeat(20, 50, 10), repeat(20, 60, 10)]);
    const b = poolRuns([repeat(20, 70, 10), repeat(20, 80, 10)]);
    const runs = [
      { summary: a.summary, outcomes: a.outcomes, strata: a.strata },
      { summary: b.summary, outcomes: b.outcomes, strata: b.strata },
    ];
    const rows = compareRows(
      runs.map((r) => r.summary),
      compareIntervals(runs, { replicates: 300 }),
    );
    const ttft = rows.find((r) => r.def.id === 'ttft-mean')!;
    expect(ttft.verdict[1]).toBe('worse');
    expect(ttft.ci[1]![0]).toBeLessThanOrEqual(ttft.rel[1]!);
    expect(ttft.ci[1]![1]).toBeGreaterThanOrEqual(ttft.rel[1]!);
  });
});
