import { C } from '../core/charts/theme.ts';
import { fmtCompact, fmtWithUnit } from '../core/format.ts';
import { lastValue } from './series.ts';
import { ChartCard } from './ChartCard.tsx';
import { TimeChart } from './TimeChart.tsx';
import type { CardProps } from './card-props.ts';

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
