/**
 * GPU telemetry beside the server's metrics (the target's dcgm-exporter endpoints): utilization,
 * framebuffer memory used and power, one line per GPU, on the panel's time axis. Shown only for
 * targets that list telemetry endpoints; a failing endpoint is said under the cards.
 */
import { useMemo } from 'react';
import { fmtWithUnit } from '../core/format.ts';
import { gpuPanelData, GPU_COLORS, type GpuPanelData, type GpuSeries } from './gpu-data.ts';
import { metricsStore } from './metrics-store.ts';
import { lastValue, type SeriesPoint } from './series.ts';
import { useMetricsStore } from './summary-store.ts';
import { ChartCard } from './ChartCard.tsx';
import { TimeChart } from './TimeChart.tsx';

interface Props {
  targetId: string;
  domain: [number, number];
  chartWidth?: number;
}

const colorOf = (i: number): string => GPU_COLORS[i % GPU_COLORS.length]!;

interface CardSpec {
  title: string;
  definition: string;
  unit: string;
  yLabel: string;
  pick: (g: GpuSeries) => SeriesPoint[];
  exposed: boolean;
  yMax?: number;
  testId: string;
}

function GpuCard({
  spec,
  data,
  domain,
  width,
}: {
  spec: CardSpec;
  data: GpuPanelData;
  domain: [number, number];
  width?: number;
}) {
  const fmt = (v: number | null) => fmtWithUnit(v, spec.unit);
  const many = data.gpus.length > 4;
  return (
    <ChartCard
      title={spec.title}
      definition={spec.definition}
      testId={spec.testId}
      legend={data.gpus.map((g, i) => ({
        name: g.label,
        color: colorOf(i),
        value: fmt(lastValue(spec.pick(g))),
        title: g.model ?? undefined,
      }))}
      caption={many ? `${data.gpus.length} GPUs` : undefined}
    >
      <TimeChart
        domain={domain}
        width={width}
        lines={data.gpus.map((g, i) => ({ id: g.key, name: g.label, color: colorOf(i), data: spec.pick(g) }))}
        yLabel={spec.yLabel}
        yMax={spec.yMax}
        format={(v) => fmtWithUnit(v, spec.unit)}
        overlay={!spec.exposed ? 'This exporter does not publish it' : null}
        testId={spec.testId}
        ariaLabel={`${spec.title}, one line per GPU`}
      />
    </ChartCard>
  );
}

export function GpuCards({ targetId, domain, chartWidth }: Props) {
  const version = useMetricsStore((s) => s.targets[targetId]?.version ?? 0);
  const [start, end] = domain;
  const tm = metricsStore.get(targetId);
  const data = useMemo(
    () => gpuPanelData(version >= 0 ? (tm?.gpus.toArray() ?? []) : [], start, end),
    [tm, version, start, end],
  );
  const errors = tm?.telemetryErrors ?? [];
  if (data.gpus.length === 0 && errors.length === 0) return null;
  const specs: CardSpec[] = [
    {
      title: 'GPU utilization',
      definition:
        'Share of time a kernel ran on each GPU over the exporter’s sample period (DCGM_FI_DEV_GPU_UTIL), at each scrape.',
      unit: '%',
      yLabel: '%',
      pick: (g) => g.util,
      exposed: data.exposed.util,
      yMax: 100,
      testId: 'gpu-util-chart',
    },
    {
      title: 'GPU memory used',
      definition:
        'Framebuffer memory in use on each GPU (DCGM_FI_DEV_FB_USED): weights, activations and the KV cache the server reserved.',
      unit: 'GiB',
      yLabel: 'GiB',
      pick: (g) => g.fbUsedGiB,
      exposed: data.exposed.fb,
      yMax: data.fbTotalGiB ?? undefined,
      testId: 'gpu-memory-chart',
    },
    {
      title: 'GPU power',
      definition: 'Power draw of each GPU (DCGM_FI_DEV_POWER_USAGE), at each scrape.',
      unit: 'W',
      yLabel: 'W',
      pick: (g) => g.powerW,
      exposed: data.exposed.power,
      testId: 'gpu-power-chart',
    },
  ];
  return (
    <section className="gpu-cards" data-testid="gpu-cards">
      <h3 className="gpu-cards-title">
        GPU telemetry
        {data.gpus.length > 0 ? ` — ${data.gpus.length} × ${data.gpus[0]!.model ?? 'GPU'}` : ''}
      </h3>
      {data.gpus.length > 0 && (
        <div className="mgrid">
          {specs.map((s) => (
            <GpuCard key={s.testId} spec={s} data={data} domain={domain} width={chartWidth} />
          ))}
        </div>
      )}
      {errors.map((e) => (
        <p key={e.url} className="field-error" data-testid="gpu-telemetry-error">
          Telemetry {e.url}: {e.error}
        </p>
      ))}
    </section>
  );
}
