/**
 * The metrics panel's gauge and rate cards: requests running and waiting (with this client's in
 * flight), token throughput, KV-cache usage and the prefix-cache hit rate, each with its current
 * value in the legend. The latency cards are LatencyCard.tsx.
 */
import { C } from '../core/charts/theme.ts';
import { fmtCompact, fmtWithUnit } from '../core/format.ts';
import type { ChartPeaks, PanelData } from './panel-data.ts';
import { lastValue, type SeriesPoint } from './series.ts';
import type { CardContext } from './card-context.ts';
import { ChartCard, type LegendItem } from './ChartCard.tsx';
import { TimeChart, type ChartLine } from './TimeChart.tsx';

interface CardProps {
  data: PanelData;
  ctx: CardContext;
  /** Side by side: one y scale per chart across both targets. */
  sharedPeaks?: ChartPeaks;
}

export function RequestsCard({ data, ctx, sharedPeaks, inFlight }: CardProps & { inFlight: SeriesPoint[] }) {
  const anyRequests = data.exposed.running || data.exposed.waiting;
  return (
    <ChartCard
      title="Requests"
      definition="Requests the server is running (in the batch, thin line) and waiting (queued, wide band beneath it: where the two are equal the thin line runs inside the band), sampled at each scrape; dashed: this client's requests to this target in flight."
      testId="metrics-running-chart"
      legend={[
        { name: 'running', color: C.content, value: fmtCompact(lastValue(data.running)) },
        { name: 'waiting', color: C.coalesced, kind: 'wide', value: fmtCompact(lastValue(data.waiting)) },
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
        domain={ctx.domain}
        width={ctx.width}
        lines={[
          { id: 'running', name: 'running', color: C.content, data: data.running },
          { id: 'waiting', name: 'waiting', color: C.coalesced, data: data.waiting, wide: true },
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
        overlay={!anyRequests ? ctx.notExposed : ctx.waitFirst}
        testId="metrics-running-chart"
        ariaLabel="Requests running and waiting on the server, and this client's requests in flight"
      />
    </ChartCard>
  );
}

/**
 * The server's prompt and generation tokens/s, and this client's own received tokens/s (dashed)
 * when it streamed from this target in the window. A server that counts tokens only when a
 * request completes (`countedAtEnd`, e.g. llama.cpp) is said so: its rate reads 0 during a long
 * stream, then spikes, and the client's line is the one that shows the stream.
 */
export function ThroughputCard({
  data,
  ctx,
  sharedPeaks,
  client = [],
  atEnd = null,
}: CardProps & {
  /** This client's output tokens/s from this target (core/client-tokens.ts). */
  client?: SeriesPoint[];
  /** The server's name when it counts generated tokens only at a request's end, else null. */
  atEnd?: string | null;
}) {
  const showClient = client.some((p) => (p.v ?? 0) > 0);
  const legend: LegendItem[] = [
    { name: 'prompt', color: C.ttft, value: fmtWithUnit(lastValue(data.promptTps), 'tok/s') },
    { name: 'generation', color: C.terminal, value: fmtWithUnit(lastValue(data.generationTps), 'tok/s') },
  ];
  if (showClient)
    legend.push({
      name: 'this client received',
      color: C.contentB,
      kind: 'dashed',
      value: fmtWithUnit(lastValue(client), 'tok/s'),
      title: 'Output tokens this app received from this target per second, as they arrived',
    });
  const lines: ChartLine[] = [
    { id: 'prompt', name: 'prompt', color: C.ttft, data: data.promptTps },
    { id: 'gen', name: 'generation', color: C.terminal, data: data.generationTps },
  ];
  if (showClient)
    lines.push({
      id: 'client',
      name: 'this client received',
      color: C.contentB,
      data: client,
      dashed: true,
      step: true,
    });
  return (
    <ChartCard
      title="Token throughput"
      definition="Prompt (prefill) and generation tokens per second: the server's token counters, rate over each scrape interval (counter resets handled); dashed: the output tokens this client received, as they arrived."
      testId="metrics-throughput-chart"
      legend={legend}
      caption={
        <>
          {ctx.step}; every client&apos;s tokens count
          {atEnd && (
            <span className="mchart-atend" data-testid="metrics-throughput-at-end">
              {' '}
              · {atEnd} counts generated tokens when a request completes: a long stream reads 0 tok/s here,
              then a spike{showClient ? '; the dashed line is this client’s tokens as they arrived' : ''}
            </span>
          )}
        </>
      }
    >
      <TimeChart
        domain={ctx.domain}
        width={ctx.width}
        lines={lines}
        yLabel="tok/s"
        peakAtLeast={sharedPeaks?.throughput}
        format={(v) => fmtWithUnit(v, 'tok/s')}
        overlay={!data.exposed.prompt && !data.exposed.generation ? ctx.notExposed : ctx.waitRate}
        testId="metrics-throughput-chart"
        ariaLabel="Prompt and generation tokens per second, and this client's received tokens per second"
      />
    </ChartCard>
  );
}

export function KvCacheCard({ data, ctx, sharedPeaks }: CardProps) {
  // 0–100 % once usage matters; below 20 % the axis zooms in, or a small cache fill is a flat line.
  const kvPeak = Math.max(0, ...data.kv.map((p) => p.v ?? 0));
  const kvMax = Math.max(kvPeak, sharedPeaks?.kv ?? 0) > 20 ? 100 : undefined;
  return (
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
        domain={ctx.domain}
        width={ctx.width}
        lines={[{ id: 'kv', name: 'KV cache used', color: C.usage, data: data.kv }]}
        yLabel="%"
        yMax={kvMax}
        peakAtLeast={sharedPeaks?.kv}
        format={(v) => fmtWithUnit(v, '%')}
        overlay={!data.exposed.kv ? ctx.notExposed : ctx.waitFirst}
        ariaLabel="KV-cache usage in percent"
      />
    </ChartCard>
  );
}

export function PrefixHitCard({ data, ctx }: Omit<CardProps, 'sharedPeaks'>) {
  return (
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
          title: 'Requests the server preempted (evicted from the batch, to be recomputed) during the window',
        },
      ]}
    >
      <TimeChart
        domain={ctx.domain}
        width={ctx.width}
        lines={[{ id: 'hit', name: 'hit rate', color: C.terminal, data: data.prefixHit }]}
        yLabel="%"
        yMax={100}
        format={(v) => fmtWithUnit(v, '%')}
        overlay={!data.exposed.prefixHit ? ctx.notExposed : ctx.waitRate}
        ariaLabel="Prefix-cache hit rate in percent"
      />
    </ChartCard>
  );
}
