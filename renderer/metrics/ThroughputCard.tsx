import { C } from '../core/charts/theme.ts';
import { fmtWithUnit } from '../core/format.ts';
import { lastValue, type SeriesPoint } from './series.ts';
import { ChartCard, type LegendItem } from './ChartCard.tsx';
import { TimeChart, type ChartLine } from './TimeChart.tsx';
import type { CardProps } from './card-props.ts';

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
