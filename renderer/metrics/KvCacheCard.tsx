import { C } from '../core/charts/theme.ts';
import { fmtWithUnit } from '../core/format.ts';
import { lastValue } from './series.ts';
import { ChartCard } from './ChartCard.tsx';
import { TimeChart } from './TimeChart.tsx';
import type { CardProps } from './card-props.ts';

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
