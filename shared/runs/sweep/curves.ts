/**
 * The curves of a sweep, as series a chart draws directly (recharts-ready rows of x and y): latency
 * percentiles against throughput, tokens/s per user against total tokens/s (the Pareto view), and
 * goodput against load — each point tagged with its step, the knee's point marked. Pure: the app's
 * Sweep mode and a report draw from it; the CLI prints the same numbers as a table. A target that
 * answers whole (embeddings, rerank: pooling.ts) has E2E only, against requests/s, and no per-user
 * curve.
 */
import type { SweepFile, SweepStep } from './file.ts';
import { sweepStreams, throughputLabel } from './pooling.ts';
import { curveSteps, loadValue } from './step.ts';

export interface CurvePoint {
  x: number;
  y: number;
  /** The step (sweep-file step index) the point comes from. */
  step: number;
  /** This point is the knee of the series' latency (latency series only). */
  knee?: true;
  overSaturated?: true;
}

interface CurveSeries {
  id: string;
  label: string;
  xLabel: string;
  yLabel: string;
  points: CurvePoint[];
}

export interface SweepCurves {
  /**
   * p50/p90/p99 of TTFT, ITL, TPOT and E2E (ms) against output tokens/s; a target that answers
   * whole: of E2E only, against requests/s (`streams` false).
   */
  latency: CurveSeries[];
  /** Tokens/s per user against total output tokens/s (the Pareto frontier of the trade-off); no points without a stream. */
  perUser: CurveSeries;
  /** Goodput and request throughput (req/s) against the offered load. */
  goodput: CurveSeries[];
  /** Input tokens/s against the offered load (the steps that have it: a sweep file's newer steps). */
  input: CurveSeries;
  /** Which load kind the x of the goodput series is. */
  loadKind: 'rate' | 'concurrency';
  /** The target streams tokens (false: embeddings, rerank). */
  streams: boolean;
}

const METRICS = [
  ['ttft', 'TTFT'],
  ['itl', 'ITL'],
  ['tpot', 'TPOT'],
  ['e2el', 'E2E'],
] as const;
const PCTS = ['p50', 'p90', 'p99'] as const;

function mark(p: CurvePoint, s: SweepStep, kneeStep: number | null): CurvePoint {
  if (kneeStep === s.index) p.knee = true;
  if (s.saturation?.overSaturated) p.overSaturated = true;
  return p;
}

export function sweepCurves(
  f: Pick<SweepFile, 'steps' | 'knee'> & { target?: { dialect: string } | undefined },
): SweepCurves {
  const steps = curveSteps(f.steps);
  const streams = sweepStreams(f);
  const xOf = (s: SweepStep): number => (streams ? s.numbers.outputTokPerS : s.numbers.requestsPerS);
  const xLabel = throughputLabel(streams);
  const latency: CurveSeries[] = [];
  for (const [m, name] of streams ? METRICS : METRICS.filter(([id]) => id === 'e2el')) {
    const kneeStep = m === 'ttft' || m === 'e2el' ? (f.knee[m]?.stepIndex ?? null) : null;
    for (const p of PCTS) {
      const points: CurvePoint[] = [];
      for (const s of steps) {
        const y = s.numbers[m]?.[p];
        if (y === null || y === undefined || !Number.isFinite(y)) continue;
        points.push(mark({ x: xOf(s), y, step: s.index }, s, p === 'p99' ? kneeStep : null));
      }
      latency.push({ id: `${m}_${p}`, label: `${name} ${p}`, xLabel, yLabel: 'ms', points });
    }
  }
  // A target that answers whole has no TPOT, so no step has a per-user speed: no points.
  const perUser: CurveSeries = {
    id: 'per_user',
    label: 'tok/s per user',
    xLabel: 'output tok/s',
    yLabel: 'tok/s per user',
    points: steps
      .filter((s) => streams && s.numbers.tokPerSPerUser !== null)
      .map((s) => mark({ x: s.numbers.outputTokPerS, y: s.numbers.tokPerSPerUser!, step: s.index }, s, null)),
  };
  const loads = steps.map((s) => s.load);
  const kind = steps.find((s) => s.role !== 'baseline')?.load.kind ?? 'rate';
  // Offered load on the x axis: a rate-inf step offered no number to place (its throughput shows
  // in the other charts), so it is left out here rather than drawn at a made-up rate.
  const byLoad = steps.filter((s) => s.load.kind === kind && s.load.value !== 'inf');
  // A series of one number against the offered load, over the steps that have it.
  const againstLoad = (
    id: string,
    label: string,
    yLabel: string,
    y: (s: SweepStep) => number | null | undefined,
  ): CurveSeries => ({
    id,
    label,
    xLabel: kind === 'rate' ? 'offered req/s' : 'concurrency',
    yLabel,
    points: byLoad.flatMap((s) => {
      const v = y(s);
      return v === null || v === undefined
        ? []
        : [mark({ x: loadValue(s.load, loads), y: v, step: s.index }, s, null)];
    }),
  });
  const goodput: CurveSeries[] = [
    againstLoad('request_throughput', 'requests/s', 'req/s', (s) => s.numbers.requestsPerS),
    againstLoad('goodput', 'goodput req/s', 'req/s', (s) => s.numbers.goodputReqPerS),
  ];
  const input = againstLoad('input_tok_s', 'input tok/s', 'input tok/s', (s) => s.numbers.inputTokPerS);
  for (const g of [...goodput, input]) g.points.sort((a, b) => a.x - b.x);
  return { latency, perUser, goodput, input, loadKind: kind, streams };
}
