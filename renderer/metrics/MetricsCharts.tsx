/**
 * The key server concepts over the panel's window, on one wall-clock axis with this client's
 * requests: requests running/waiting (+ this client's in flight), server TTFT quantiles (+ each
 * client TTFT), token throughput, KV-cache usage, ITL, E2E (+ client E2E), queue time and the
 * prefix-cache hit rate. Values come from metrics/panel-data.ts; this file only lays them out.
 */
import { useMemo } from 'react';
import type { RequestSummary } from '../../shared/api.ts';
import { C } from '../core/charts/theme.ts';
import { fmtCompact, fmtLatency, fmtWithUnit } from '../core/format.ts';
import {
  clientE2ePoints,
  clientTtftPoints,
  inFlightSeries,
  type ChartPeaks,
  type LatencyKey,
  type PanelData,
} from './panel-data.ts';
import { lastValue, type BandPoint, type SeriesPoint } from './series.ts';
import { fmtBucket } from '../core/format.ts';
import { peakOf } from '../core/charts/y-axis.ts';
import { ChartCard, type LegendItem } from './ChartCard.tsx';
import { TimeChart, type ChartLine } from './TimeChart.tsx';

interface Props {
  targetId: string;
  profileName: string;
  data: PanelData;
  domain: [number, number];
  requests: readonly RequestSummary[];
  /** Scrapes in the store for this target (0 and 1: too few to chart). */
  scrapes: number;
  /** The scraper is failing right now. */
  failing: boolean;
  chartWidth?: number;
  /** Side by side with another target: each chart's y axis reaches both targets' peak (one scale). */
  sharedPeaks?: ChartPeaks;
}

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

function stepNote(resolutionMs: number): string {
  return resolutionMs > 0 ? `${resolutionMs / 1000} s steps` : 'per scrape interval';
}

export function MetricsCharts({
  targetId,
  profileName,
  data,
  domain,
  requests,
  scrapes,
  failing,
  chartWidth,
  sharedPeaks,
}: Props) {
  const [start, end] = domain;
  const inFlight = useMemo(
    () => inFlightSeries(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  const clientTtft = useMemo(
    () => clientTtftPoints(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  const clientE2e = useMemo(
    () => clientE2ePoints(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  // Before the first scrape nothing is known, not even what the server exposes.
  const noData =
    scrapes === 0
      ? failing
        ? 'No scrape has succeeded yet (see above)'
        : 'Waiting for the first scrape…'
      : null;
  const notExposed = noData ?? `Not exposed by this server (${profileName})`;
  const waitFirst = noData ?? (scrapes < 2 ? 'Waiting for the first scrapes…' : null);
  const waitRate = noData ?? (scrapes < 2 ? 'Rates need two scrapes…' : null);
  const step = stepNote(data.resolutionMs);
  const common = { domain, width: chartWidth };

  const latencyCard = (key: LatencyKey, client?: { points: SeriesPoint[]; name: string }) => {
    const l = data.latency[key];
    const w = l.window;
    // Seconds on the axis once values reach seconds ("5k ms" reads badly); tooltips keep ms/s text.
    const shared = sharedPeaks?.[key] ?? 0;
    const peak = Math.max(shared, peakOf([{ data: l.p50 }, { data: l.p99 }, { data: client?.points ?? [] }]));
    const inSeconds = peak >= 2000;
    const sc = (d: readonly SeriesPoint[]): SeriesPoint[] =>
      inSeconds ? d.map((p) => ({ t: p.t, v: p.v === null ? null : p.v / 1000 })) : (d as SeriesPoint[]);
    const scb = (d: readonly BandPoint[]): BandPoint[] =>
      inSeconds
        ? d.map((p) => ({ t: p.t, range: p.range ? [p.range[0] / 1000, p.range[1] / 1000] : null }))
        : (d as BandPoint[]);
    const lines: ChartLine[] = [
      { id: 'p50', name: 'p50', color: C.content, data: sc(l.p50), band: scb(l.p50Band) },
      { id: 'p99', name: 'p99', color: C.coalesced, data: sc(l.p99), band: scb(l.p99Band) },
    ];
    const none = w?.count === 0 ? 'no obs.' : undefined;
    // Over the window: the bucket itself where it is wide next to the value (the true quantile can
    // be anywhere in it), else the interpolated number.
    const winValue = (v: number | null | undefined, wide: [number, number | null] | null | undefined) =>
      none ?? (wide && v !== null && v !== undefined ? fmtBucket(wide) : fmtLatency(v));
    const bandNote =
      ' · shaded: the histogram bucket a quantile lies in, where it is wider than a quarter of the value';
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
    if (client) {
      lines.push({
        id: 'client',
        name: client.name,
        color: C.contentB,
        data: sc(client.points),
        dotsOnly: true,
      });
      legend.push({
        name: client.name,
        color: C.contentB,
        kind: 'dot',
        value: `${client.points.length} request${client.points.length === 1 ? '' : 's'}`,
        title: 'One dot per request of this client, at the moment it was measured',
      });
    }
    const observed = w ? w.count : 0;
    const overlay = !l.exposed
      ? notExposed
      : (waitFirst ??
        (observed === 0 && (!client || client.points.length === 0)
          ? 'No observations in this window'
          : null));
    return (
      <ChartCard
        key={key}
        title={LATENCY[key].title}
        definition={LATENCY[key].definition}
        legend={legend}
        testId={`metrics-${key}-chart`}
        caption={
          l.exposed && w
            ? `${fmtCompact(observed)} observation${observed === 1 ? '' : 's'} in the window · quantiles ${step}, from histogram deltas; a gap means no observations${
                l.p50Band.some((b) => b.range) || l.p99Band.some((b) => b.range) ? bandNote : ''
              }`
            : undefined
        }
      >
        <TimeChart
          {...common}
          lines={lines}
          yLabel={inSeconds ? 's' : 'ms'}
          peakAtLeast={inSeconds ? shared / 1000 : shared}
          format={inSeconds ? (v) => fmtLatency(v * 1000) : fmtLatency}
          overlay={overlay}
          testId={`metrics-${key}-chart`}
          ariaLabel={`${LATENCY[key].title} p50 and p99 over time, ${inSeconds ? 's' : 'ms'}`}
        />
      </ChartCard>
    );
  };

  const anyRequests = data.exposed.running || data.exposed.waiting;
  // 0–100 % once usage matters; below 20 % the axis zooms in, or a small cache fill is a flat line.
  const kvPeak = Math.max(0, ...data.kv.map((p) => p.v ?? 0));
  const kvMax = Math.max(kvPeak, sharedPeaks?.kv ?? 0) > 20 ? 100 : undefined;
  return (
    <div className="mgrid">
      <ChartCard
        title="Requests"
        definition="Requests the server is running (in the batch) and waiting (queued), sampled at each scrape; dashed: this client's requests to this target in flight."
        testId="metrics-running-chart"
        legend={[
          { name: 'running', color: C.content, value: fmtCompact(lastValue(data.running)) },
          { name: 'waiting', color: C.coalesced, value: fmtCompact(lastValue(data.waiting)) },
          {
            name: 'this client in flight',
            color: C.contentB,
            kind: 'dashed',
            value: fmtCompact(lastValue(inFlight)),
            title: "This app's requests to this target between their start and their end",
          },
        ]}
      >
        <TimeChart
          {...common}
          lines={[
            { id: 'running', name: 'running', color: C.content, data: data.running },
            { id: 'waiting', name: 'waiting', color: C.coalesced, data: data.waiting },
            {
              id: 'client',
              name: 'this client in flight',
              color: C.contentB,
              data: inFlight,
              dashed: true,
              step: true,
            },
          ]}
          yLabel="requests"
          peakAtLeast={sharedPeaks?.running}
          integer
          format={(v) => fmtCompact(v)}
          overlay={!anyRequests ? notExposed : waitFirst}
          testId="metrics-running-chart"
          ariaLabel="Requests running and waiting on the server, and this client's requests in flight"
        />
      </ChartCard>
      {latencyCard('ttft', { points: clientTtft, name: 'client TTFT' })}
      <ChartCard
        title="Token throughput"
        definition="Prompt (prefill) and generation tokens per second: the server's token counters, rate over each scrape interval (counter resets handled)."
        legend={[
          { name: 'prompt', color: C.ttft, value: fmtWithUnit(lastValue(data.promptTps), 'tok/s') },
          {
            name: 'generation',
            color: C.terminal,
            value: fmtWithUnit(lastValue(data.generationTps), 'tok/s'),
          },
        ]}
        caption={`${step}; every client's tokens count`}
      >
        <TimeChart
          {...common}
          lines={[
            { id: 'prompt', name: 'prompt', color: C.ttft, data: data.promptTps },
            { id: 'gen', name: 'generation', color: C.terminal, data: data.generationTps },
          ]}
          yLabel="tok/s"
          peakAtLeast={sharedPeaks?.throughput}
          format={(v) => fmtWithUnit(v, 'tok/s')}
          overlay={!data.exposed.prompt && !data.exposed.generation ? notExposed : waitRate}
          ariaLabel="Prompt and generation tokens per second"
        />
      </ChartCard>
      <ChartCard
        title="KV-cache usage"
        definition="Share of the KV cache in use (the server's gauge, 0–100 %), sampled at each scrape."
        legend={[
          { name: 'used', color: C.usage, value: fmtWithUnit(lastValue(data.kv), '%') },
          {
            name: 'peak',
            color: C.usage,
            kind: 'none',
            value: fmtWithUnit(kvPeak, '%'),
            title: 'Highest usage in the window',
          },
        ]}
        caption={kvMax === undefined && kvPeak > 0 ? 'axis zoomed in: usage stayed under 20 %' : undefined}
      >
        <TimeChart
          {...common}
          lines={[{ id: 'kv', name: 'KV cache used', color: C.usage, data: data.kv }]}
          yLabel="%"
          yMax={kvMax}
          peakAtLeast={sharedPeaks?.kv}
          format={(v) => fmtWithUnit(v, '%')}
          overlay={!data.exposed.kv ? notExposed : waitFirst}
          ariaLabel="KV-cache usage in percent"
        />
      </ChartCard>
      {latencyCard('itl')}
      {latencyCard('e2e', { points: clientE2e, name: 'client E2E' })}
      {latencyCard('queue')}
      <ChartCard
        title="Prefix-cache hit rate"
        definition="Share of prompt tokens served from the prefix cache: hits ÷ queries over each interval when the server counts them, else its own hit-rate gauge. A gap: no queries."
        legend={[
          { name: 'hit rate', color: C.terminal, value: fmtWithUnit(lastValue(data.prefixHit), '%') },
          {
            name: 'preemptions in window',
            color: C.error,
            kind: 'none',
            value: data.preemptions === null ? '—' : fmtCompact(data.preemptions),
            title:
              'Requests the server preempted (evicted from the batch, to be recomputed) during the window',
          },
        ]}
      >
        <TimeChart
          {...common}
          lines={[{ id: 'hit', name: 'hit rate', color: C.terminal, data: data.prefixHit }]}
          yLabel="%"
          yMax={100}
          format={(v) => fmtWithUnit(v, '%')}
          overlay={!data.exposed.prefixHit ? notExposed : waitRate}
          ariaLabel="Prefix-cache hit rate in percent"
        />
      </ChartCard>
    </div>
  );
}
