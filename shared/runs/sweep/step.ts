/**
 * A sweep step's numbers from its run summary (what the sweep file keeps per step), and the knees
 * of a sweep's steps: p99 TTFT and p99 E2E against output tokens/s (knee.ts); for a target that
 * answers whole, p99 E2E against requests/s (pooling.ts).
 */
import { findKnee, type Knee } from './knee.ts';
import type { StepNumbers, SweepFile, SweepLoad, SweepStep } from './file.ts';
import { statsOf } from '../summary/stats-of.ts';
import type { RunSummary, StatMetric } from '../summary/schema.ts';

function pcts(s: RunSummary, m: StatMetric): StepNumbers['ttft'] {
  const st = statsOf(s, m);
  return st ? { p50: st.median, p90: st.p90, p99: st.p99 } : null;
}

export function stepNumbers(s: RunSummary): StepNumbers {
  const v = s.vllm;
  const tpot = statsOf(s, 'tpot');
  return {
    completed: v.completed,
    failed: v.failed,
    durationS: v.duration,
    requestsPerS: v.request_throughput,
    outputTokPerS: v.output_throughput,
    goodputReqPerS: v.request_goodput,
    tokPerSPerUser: tpot && tpot.median > 0 ? 1000 / tpot.median : null,
    maxConcurrent: v.max_concurrent_requests,
    ttft: pcts(s, 'ttft'),
    itl: pcts(s, 'itl'),
    tpot: pcts(s, 'tpot'),
    e2el: pcts(s, 'e2el'),
    ...(s.batch ? { inputsPerS: s.batch.inputsPerS, inputTokPerS: s.batch.inputTokensPerS } : {}),
  };
}

/** A load as a number for curves and knees: rate inf counts as above every finite step. */
export function loadValue(l: SweepLoad, all: readonly SweepLoad[]): number {
  if (l.value !== 'inf') return l.value;
  const finite = all.map((x) => x.value).filter((x): x is number => x !== 'inf');
  return (finite.length ? Math.max(...finite) : 1) * 2;
}

/** The steps a knee and the curves are drawn over: one load kind, the search's repeats merged (last kept). */
export function curveSteps(steps: readonly SweepStep[]): SweepStep[] {
  const kinds = steps.filter((s) => s.role !== 'baseline').map((s) => s.load.kind);
  const kind = kinds[kinds.length - 1] ?? steps[0]?.load.kind ?? 'rate';
  const byLoad = new Map<string, SweepStep>();
  for (const s of steps) {
    // The synchronous baseline (concurrency 1) sits at the low end of a rate sweep too.
    if (s.load.kind !== kind && s.role !== 'baseline') continue;
    if (s.numbers.completed === 0) continue;
    byLoad.set(`${s.load.kind}:${s.load.value}`, s);
  }
  const kept = [...byLoad.values()];
  const loads = kept.map((s) => s.load);
  // By offered load, not by what was achieved: past saturation throughput can fall as load rises.
  return kept.sort(
    (a, b) =>
      Number(b.role === 'baseline') - Number(a.role === 'baseline') ||
      loadValue(a.load, loads) - loadValue(b.load, loads) ||
      a.index - b.index,
  );
}

function kneeRec(k: Knee | null, steps: readonly SweepStep[]): SweepFile['knee']['ttft'] {
  if (!k) return null;
  const s = steps[k.index]!;
  return {
    stepIndex: s.index,
    load: k.load,
    throughput: k.throughput,
    latency: k.latency,
    elasticity: Number.isFinite(k.elasticity) ? k.elasticity : 'inf',
  };
}

/**
 * The steps a knee is found over: the curve's steps (curveSteps) that ran at a steady load — not a
 * rate-inf step (everything sent at once: its p99 is a queue's drain, seconds where the finite
 * steps have milliseconds, and scaled to [0, 1] it flattens them all so the knee lands on the last
 * finite step whatever the curve), and not an over-saturated step (its queue never stopped growing,
 * so it has no steady latency to put on the curve). Both stay on the charts, marked.
 */
function kneeSteps(steps: readonly SweepStep[]): SweepStep[] {
  return curveSteps(steps).filter((s) => s.load.value !== 'inf' && s.saturation?.overSaturated !== true);
}

/**
 * The knees on p99 TTFT and p99 E2E against output tokens/s, over the steady steps in order of
 * offered load (a concurrency-1 baseline first; kneeSteps). `streams` false (embeddings, rerank:
 * pooling.ts): no TTFT knee, and E2E's against request throughput.
 */
export function kneesOf(steps: readonly SweepStep[], minRise = 2, streams = true): SweepFile['knee'] {
  const cs = kneeSteps(steps);
  const of = (m: 'ttft' | 'e2el'): SweepFile['knee']['ttft'] =>
    kneeRec(
      findKnee(
        cs.map((s, i) => ({
          load: i,
          throughput: streams ? s.numbers.outputTokPerS : s.numbers.requestsPerS,
          latency: s.numbers[m]?.p99 ?? NaN,
        })),
        minRise,
      ),
      cs,
    );
  const fix = (k: SweepFile['knee']['ttft']): SweepFile['knee']['ttft'] => {
    if (!k) return null;
    const s = steps.find((x) => x.index === k.stepIndex)!;
    return {
      ...k,
      load: loadValue(
        s.load,
        steps.map((x) => x.load),
      ),
    };
  };
  return { ttft: streams ? fix(of('ttft')) : null, e2el: fix(of('e2el')), minRise };
}
