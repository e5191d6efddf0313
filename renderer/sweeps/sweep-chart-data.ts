/**
 * What the Sweep charts draw, from one or more sweep files (overlaid: two servers, two configs):
 * per sweep its series (shared/runs/sweep/curves.ts), its colour, the knee and over-saturated
 * points as marks, the SLO's limit (a line on its metric's chart) and answer (a band of loads).
 * Pure, so the component tests only check that it is drawn. A target that answers whole
 * (embeddings, rerank: shared/runs/sweep/pooling.ts) has E2E only, against req/s, and no per-user
 * chart; the first sweep's kind sets the axes, and an overlaid sweep of the other kind is left out of
 * the latency and per-user charts (`leftOut`) — its x is another unit.
 */
import type { SweepFile } from '../../shared/runs/sweep/file.ts';
import { sweepCurves, type CurvePoint } from '../../shared/runs/sweep/curves.ts';
import { parseSlo } from '../../shared/runs/sweep/slo.ts';
import { sweepStreams, throughputLabel } from '../../shared/runs/sweep/pooling.ts';
import { C } from '../core/charts/theme.ts';

export type LatencyMetric = 'ttft' | 'itl' | 'tpot' | 'e2el';
export const LATENCY_METRICS: readonly { id: LatencyMetric; label: string }[] = [
  { id: 'ttft', label: 'TTFT' },
  { id: 'itl', label: 'ITL' },
  { id: 'tpot', label: 'TPOT' },
  { id: 'e2el', label: 'E2E' },
];

/** One sweep to draw: its file and how the legend names it. */
export interface SweepSource {
  id: string;
  label: string;
  file: Pick<SweepFile, 'steps' | 'knee' | 'slo'> & { target?: { dialect: string } | undefined };
}

/** Whether the charts are a token stream's (the first sweep's kind; true with none). */
export function chartsStream(sources: readonly SweepSource[]): boolean {
  return sources[0] ? sweepStreams(sources[0].file) : true;
}

/** The sweeps of the other kind than the first (not on the latency and per-user charts). */
export function leftOut(sources: readonly SweepSource[]): SweepSource[] {
  const streams = chartsStream(sources);
  return sources.filter((s) => sweepStreams(s.file) !== streams);
}

interface ChartSeries {
  key: string;
  name: string;
  color: string;
  dashed: boolean;
  points: CurvePoint[];
}

interface ChartMark {
  x: number;
  y: number;
  label: string;
  color: string;
}

export interface ChartData {
  series: ChartSeries[];
  knees: ChartMark[];
  /** Over-saturated steps (stopped early): drawn as crosses. */
  over: { x: number; y: number }[];
  /** The SLO's limit on this chart's y (its metric's chart only). */
  limit: { y: number; label: string } | null;
  /** The SLO answer on this chart's x: highest passing to lowest failing load. */
  band: { x1: number; x2: number; label: string } | null;
  xLabel: string;
  yLabel: string;
}

/** A chart with nothing drawn yet: its axes' labels, and the SLO's limit on its y where it has one. */
export function emptyChart(xLabel: string, yLabel: string, limit: ChartData['limit'] = null): ChartData {
  return { series: [], knees: [], over: [], limit, band: null, xLabel, yLabel };
}

/** Each sweep's colour, in the order given (two overlaid sweeps: blue and pink). */
const SWEEP_COLORS = [C.content, C.contentB, C.coalesced, C.usage, C.terminal] as const;

export function colorOf(i: number): string {
  return SWEEP_COLORS[i % SWEEP_COLORS.length]!;
}

export function overOf(points: CurvePoint[]): { x: number; y: number }[] {
  return points.filter((p) => p.overSaturated).map((p) => ({ x: p.x, y: p.y }));
}

/** `p99_ttft_ms<=60` on the chart of TTFT: the limit as a horizontal line. */
function limitOf(sources: readonly SweepSource[], m: LatencyMetric): ChartData['limit'] {
  for (const s of sources) {
    if (!s.file.slo) continue;
    const r = parseSlo(s.file.slo.terms);
    if (!r.ok) continue;
    const t = r.value.find((x) => x.spec.metric === m);
    if (t) return { y: t.limit, label: `SLO ${t.key.replace(/_ms$/, '')} ${t.op} ${t.limit} ms` };
  }
  return null;
}

/**
 * Latency percentiles (p50 dashed, p99 solid) of one metric against output tokens/s; for a target
 * that answers whole, E2E against req/s whatever `m` asks.
 */
export function latencyChart(sources: readonly SweepSource[], metric: LatencyMetric): ChartData {
  const streams = chartsStream(sources);
  const m = streams ? metric : 'e2el';
  const name = LATENCY_METRICS.find((x) => x.id === m)!.label;
  const out = emptyChart(throughputLabel(streams), `${name} (ms)`, limitOf(sources, m));
  sources.forEach((s, i) => {
    const curves = sweepCurves(s.file);
    if (curves.streams !== streams) return;
    const color = colorOf(i);
    const prefix = sources.length > 1 ? `${s.label} · ` : '';
    for (const p of ['p50', 'p99'] as const) {
      const c = curves.latency.find((x) => x.id === `${m}_${p}`);
      if (!c) continue;
      out.series.push({
        key: `${s.id}:${c.id}`,
        name: `${prefix}${name} ${p}`,
        color,
        dashed: p === 'p50',
        points: c.points,
      });
      out.over.push(...overOf(c.points));
      const k = c.points.find((x) => x.knee);
      if (k)
        out.knees.push({ x: k.x, y: k.y, label: `knee${sources.length > 1 ? ` · ${s.label}` : ''}`, color });
    }
  });
  return out;
}

/** Tokens/s per user against total output tokens/s: the trade-off each load buys. */
export function perUserChart(sources: readonly SweepSource[]): ChartData {
  const out = emptyChart('output tok/s (total)', 'tok/s per user');
  sources.forEach((s, i) => {
    if (!sweepStreams(s.file)) return;
    const c = sweepCurves(s.file).perUser;
    out.series.push({
      key: `${s.id}:${c.id}`,
      name: sources.length > 1 ? s.label : c.label,
      color: colorOf(i),
      dashed: false,
      points: c.points,
    });
    out.over.push(...overOf(c.points));
  });
  return out;
}

/** Request throughput (solid) and goodput (dashed) against the offered load; the SLO answer as a band. */
export function goodputChart(sources: readonly SweepSource[]): ChartData {
  const first = sources[0] ? sweepCurves(sources[0].file) : null;
  const kind = first?.loadKind ?? 'rate';
  const out = emptyChart(kind === 'rate' ? 'offered load (req/s)' : 'concurrency', 'req/s');
  sources.forEach((s, i) => {
    const curves = sweepCurves(s.file);
    // A concurrency sweep has no place on a rate axis (and back): only the first sweep's kind is drawn.
    if (curves.loadKind !== kind) return;
    const prefix = sources.length > 1 ? `${s.label} · ` : '';
    for (const c of curves.goodput) {
      if (c.points.length === 0) continue;
      out.series.push({
        key: `${s.id}:${c.id}`,
        name: `${prefix}${c.label}`,
        color: colorOf(i),
        dashed: c.id === 'goodput',
        points: c.points,
      });
      if (c.id === 'request_throughput') out.over.push(...overOf(c.points));
    }
    const slo = s.file.slo;
    if (!out.band && slo && slo.search === kind && (slo.passing || slo.failing)) {
      const x1 = slo.passing?.load ?? 0;
      const x2 = slo.failing?.load ?? x1;
      out.band = {
        x1,
        x2,
        label: slo.failing ? `SLO answer ${fmt(x1)}–${fmt(x2)}` : `SLO met up to ${fmt(x1)}`,
      };
    }
  });
  return out;
}

function fmt(v: number): string {
  return Number(v.toPrecision(3)).toString();
}
