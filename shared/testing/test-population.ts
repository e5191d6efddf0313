/**
 * Test fixtures: runs drawn from a known population with the seeded generator (prng.ts), for the
 * statistical tests of the comparison (the gate's false alarms, interval coverage). Not shipped.
 *
 * A request arrives by a Poisson process, waits a lognormal TTFT, then streams its output tokens
 * one per chunk at a per-request pace (a slow request's gaps are all slow) with jitter around it;
 * a share fails early. `scale` multiplies every time: the true change of every latency mean and
 * quantile between scale 1 and 1.1 is exactly +10 %.
 */
import { Rng } from '../prng.ts';
import { blankOutcome } from '../runs/summary/outcome.ts';
import type { RequestOutcome } from '../runs/summary/outcome.ts';
import type { RunSummary } from '../runs/summary/schema.ts';
import { computeRunSummary } from '../runs/summary/summary.ts';

export interface Population {
  /** Requests per run. */
  n: number;
  /** Arrivals per second. */
  rate?: number;
  /** Share of requests that fail. */
  failShare?: number;
  /** Output tokens: uniform in [min, max]. */
  outputTokens?: [number, number];
  /** Lognormal σ of TTFT (heavier tail above 0.5). */
  ttftSigma?: number;
  /** Every time × scale (1: the population itself). */
  scale?: number;
}

export interface DrawnRun {
  summary: RunSummary;
  outcomes: RequestOutcome[];
}

export function drawRun(rng: Rng, p: Population): DrawnRun {
  const scale = p.scale ?? 1;
  const [lo, hi] = p.outputTokens ?? [8, 24];
  const outcomes: RequestOutcome[] = [];
  let t = 0;
  let end = 0;
  for (let i = 0; i < p.n; i++) {
    t += (-Math.log(1 - rng.next()) / (p.rate ?? 4)) * 1000;
    const ttft = 100 * scale * Math.exp((p.ttftSigma ?? 0.5) * rng.normal());
    if (rng.next() < (p.failShare ?? 0)) {
      outcomes.push({ ...blankOutcome(false), startMs: t, e2eMs: ttft, inputTokens: 200 });
      end = Math.max(end, t + ttft);
      continue;
    }
    const tokens = lo + Math.floor(rng.next() * (hi - lo + 1));
    const level = 20 * scale * Math.exp(0.3 * rng.normal());
    const itl = Array.from({ length: tokens - 1 }, () => level * Math.exp(0.2 * rng.normal()));
    const e2e = ttft + itl.reduce((a, b) => a + b, 0);
    outcomes.push({
      ...blankOutcome(true),
      startMs: t,
      ttftMs: ttft,
      e2eMs: e2e,
      tpotMs: (e2e - ttft) / (tokens - 1),
      outputTokens: tokens,
      inputTokens: 200,
      itlChunkMs: itl,
      itlTokenMs: itl,
    });
    end = Math.max(end, t + e2e);
  }
  const config = { requestRate: p.rate ?? 4, maxConcurrency: null } as RunSummary['config'];
  const summary = computeRunSummary({ outcomes, durationS: end / 1000, config });
  return { summary, outcomes };
}
