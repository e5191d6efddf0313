/**
 * Confidence intervals of a comparison (shared/runs/compare/compare.ts compareIntervals, bootstrap.ts):
 * two runs of N requests with G gaps each, every compared row's 95 % interval, 1,000 replicates.
 * Target (issue 11): 10,000 requests in ≤ 2 s. Reference in the same run: sorting the pooled ITL
 * values once (what any exact quantile costs), so the ratio travels between machines.
 * `npm run bench -- intervals [requests] [gaps]`
 */
import { outcomesFromCounts } from '../shared/runs/compare/bootstrap.ts';
import { compareIntervals } from '../shared/runs/compare/intervals.ts';
import { Rng } from '../shared/prng.ts';
import type { RequestOutcome } from '../shared/runs/summary/outcome.ts';
import { computeRunSummary } from '../shared/runs/summary/summary.ts';

function synth(n: number, gaps: number, scale: number, seed: number): RequestOutcome[] {
  const rng = new Rng(seed, 'bench');
  const base = outcomesFromCounts(1, 0)[0]!;
  const out: RequestOutcome[] = [];
  for (let i = 0; i < n; i++) {
    const level = 20 * scale * Math.exp(0.3 * rng.normal());
    const itl = Array.from({ length: gaps }, () => level * Math.exp(0.3 * rng.normal()));
    const ttft = 100 * scale * Math.exp(0.5 * rng.normal());
    const e2e = ttft + itl.reduce((a, b) => a + b, 0);
    out.push({
      ...base,
      ok: rng.next() > 0.01,
      startMs: i,
      ttftMs: ttft,
      e2eMs: e2e,
      tpotMs: (e2e - ttft) / gaps,
      outputTokens: gaps + 1,
      itlChunkMs: itl,
      itlTokenMs: itl,
    });
  }
  return out;
}

export function benchIntervals(n = 10_000, gaps = 100): Record<string, number> {
  const runs = [1, 1.05].map((scale, i) => {
    const outcomes = synth(n, gaps, scale, i + 1);
    return { outcomes, summary: computeRunSummary({ outcomes, durationS: 60, config: {} as never }) };
  });
  const t0 = performance.now();
  const ci = compareIntervals(runs);
  const seconds = (performance.now() - t0) / 1000;
  const all = new Float64Array(n * gaps * 2);
  let k = 0;
  for (const r of runs) for (const o of r.outcomes) for (const g of o.itlChunkMs) all[k++] = g;
  const t1 = performance.now();
  all.sort();
  const sortS = (performance.now() - t1) / 1000;
  return {
    requestsPerRun: n,
    gapsPerRequest: gaps,
    rowsWithIntervals: [...ci.values()].filter((v) => v[1]).length,
    seconds: +seconds.toFixed(3),
    sortPooledItlSeconds: +sortS.toFixed(3),
    ratioToSort: +(seconds / sortS).toFixed(1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(
    JSON.stringify(benchIntervals(Number(process.argv[2]) || 10_000, Number(process.argv[3]) || 100)),
  );
