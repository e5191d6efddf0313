/**
 * A server latency chart of the metrics panel (TTFT, ITL, E2E, queue time): p50 and p99 from the
 * server's histogram per step, shaded where only a wide bucket is known, this client's own
 * measurements as dots, and the window's quantiles in the legend.
 */
import { C } from '../core/charts/theme.ts';
import { fmtBucket, fmtCompact, fmtLatency } from '../core/format.ts';
import { peakOf } from '../core/charts/y-axis.ts';
import type { LatencyChart, LatencyKey } from './panel-data.ts';
import type { BandPoint, SeriesPoint } from './series.ts';
import type { CardContext } from './card-context.ts';
import { ChartCard, type LegendItem } from './ChartCard.tsx';
import { TimeChart, type ChartLine } from './TimeChart.tsx';

const LATENCY: Record<LatencyKey, { title: string; definition: string }> = {
  ttft: {
    title: 'Server TTFT',
    definition:
      "Time to first token as the server measures it (its TTFT histogram): from the request's arrival at the server to its first generated token.",
  },
  itl: {
    title: 'Server inter-token latency',
    definition:
      "Gaps between consecutive tokens of a request, as the server's inter-token histogram records them (per token).",
  },
  e2e: {
    title: 'Server E2E latency',
    definition:
      'Whole request as the server measures it: arrival to the last token (its e2e request latency histogram).',
  },
  queue: {
    title: 'Server queue time',
    definition:
      'Time requests waited in the server’s queue before being scheduled (its queue-time histogram).',
  },
};

/** This client's own measurements of the same latency, one point per request. */
interface ClientPoints {
  points: SeriesPoint[];
  name: string;
}

const toSeconds = (d: readonly SeriesPoint[], inSeconds: boolean): SeriesPoint[] =>
  inSeconds ? d.map((p) => ({ t: p.t, v: p.v === null ? null : p.v / 1000 })) : (d as SeriesPoint[]);

const bandToSeconds = (d: readonly BandPoint[], inSeconds: boolean): BandPoint[] =>
  inSeconds
    ? d.map((p) => ({ t: p.t, range: p.range ? [p.range[0] / 1000, p.range[1] / 1000] : null }))
    : (d as BandPoint[]);

/** The legend: p50 and p99 over the whole window, and how many requests of this client are dots. */
function latencyLegend(w: LatencyChart['window'], client: ClientPoints | undefined): LegendItem[] {
  const none = w?.count === 0 ? 'no obs.' : undefined;
  // Over the window: the bucket itself where it is wide next to the value (the true quantile can
  // be anywhere in it), else the interpolated number.
  const winValue = (v: number | null | undefined, wide: [number, number | null] | null | undefined) =>
    none ?? (wide && v !== null && v !== undefined ? fmtBucket(wide) : fmtLatency(v));
  const legend: LegendItem[] = [
    {
      name: 'p50',
      color: C.content,
      value: winValue(w?.p50, w?.p50Wide),
      title: 'Median over the whole window (all its observations)',
    },
    {
      name: 'p99',
      color: C.coalesced,
      value: winValue(w?.p99, w?.p99Wide),
      title: '99th percentile over the whole window',
    },
  ];
  if (client)
    legend.push({
      name: client.name,
      color: C.contentB,
      kind: 'dot',
      value: `${client.points.length} request${client.points.length === 1 ? '' : 's'}`,
      title: 'One dot per request of this client, at the moment it was measured',
    });
  return legend;
}

/** The caption: observations in the window, how the quantiles are made, what the shading means. */
function latencyCaption(l: LatencyChart, step: string): string | undefined {
  if (!l.exposed || !l.window) return undefined;
  const observed = l.window.count;
  const bandNote =
    ' · shaded: the histogram bucket a quantile lies in, where it is wider than a quarter of the value';
  return `${fmtCompact(observed)} observation${observed === 1 ? '' : 's'} in the window · quantiles ${step}, from histogram deltas; a gap means no observations${
    l.p50Band.some((b) => b.range) || l.p99Band.some((b) => b.range) ? bandNote : ''
  }`;
}

export function LatencyCard({
  metric,
  latency: l,
  client,
  sharedPeak = 0,
  ctx,
}: {
  metric: LatencyKey;
  latency: LatencyChart;
  client?: ClientPoints;
  /** Side by side: the peak of both targets, so one scale serves both columns. */
  sharedPeak?: number;
  ctx: CardContext;
}) {
  const w = l.window;
  // Seconds on the axis once values reach seconds ("5k ms" reads badly); tooltips keep ms/s text.
  const peak = Math.max(
    sharedPeak,
    peakOf([{ data: l.p50 }, { data: l.p99 }, { data: client?.points ?? [] }]),
  );
  const inSeconds = peak >= 2000;
  const lines: ChartLine[] = [
    {
      id: 'p50',
      name: 'p50',
      color: C.content,
      data: toSeconds(l.p50, inSeconds),
      band: bandToSeconds(l.p50Band, inSeconds),
    },
    {
      id: 'p99',
      name: 'p99',
      color: C.coalesced,
      data: toSeconds(l.p99, inSeconds),
      band: bandToSeconds(l.p99Band, inSeconds),
    },
  ];
  if (client)
    lines.push({
      id: 'client',
      name: client.name,
      color: C.contentB,
      data: toSeconds(client.points, inSeconds),
      dotsOnly: true,
    });
  const observed = w ? w.count : 0;
  const overlay = !l.exposed
    ? ctx.notExposed
    : (ctx.waitFirst ??
      (observed === 0 && (!client || client.points.length === 0) ? 'No observations in this window' : null));
  const { title, definition } = LATENCY[metric];
  return (
    <ChartCard
      title={title}
      definition={definition}
      legend={latencyLegend(w, client)}
      testId={`metrics-${metric}-chart`}
      caption={latencyCaption(l, ctx.step)}
    >
      <TimeChart
        domain={ctx.domain}
        width={ctx.width}
        lines={lines}
        yLabel={inSeconds ? 's' : 'ms'}
        peakAtLeast={inSeconds ? sharedPeak / 1000 : sharedPeak}
        format={inSeconds ? (v) => fmtLatency(v * 1000) : fmtLatency}
        overlay={overlay}
        testId={`metrics-${metric}-chart`}
        ariaLabel={`${title} p50 and p99 over time, ${inSeconds ? 's' : 'ms'}`}
      />
    </ChartCard>
  );
}
