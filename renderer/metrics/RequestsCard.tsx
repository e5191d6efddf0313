import { C } from '../core/charts/theme.ts';
import { fmtCompact } from '../core/format.ts';
import { lastValue, type SeriesPoint } from './series.ts';
import { ChartCard } from './ChartCard.tsx';
import { TimeChart } from './TimeChart.tsx';
import type { CardProps } from './card-props.ts';

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
