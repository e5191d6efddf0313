/**
 * The sweep's curves, for one sweep or several overlaid: a latency metric (TTFT, ITL, TPOT, E2E;
 * p50 and p99) against output tokens/s with the knee, tokens/s per user against total tokens/s,
 * and requests/s and goodput against the offered load with the SLO's answer. A target that answers
 * whole (embeddings, rerank): E2E against req/s (no metric switch) and input tok/s against the load
 * in place of the per-user chart.
 */
import { useMemo, useState } from 'react';
import type { SweepLoad } from '../../shared/runs/sweep/file.ts';
import { loadText } from '../../shared/runs/sweep/text.ts';
import {
  chartsStream,
  goodputChart,
  leftOut,
  LATENCY_METRICS,
  latencyChart,
  perUserChart,
  type LatencyMetric,
  type SweepSource,
} from './sweep-chart-data.ts';
import { inputChart } from './pooling-chart-data.ts';
import { SweepChart } from './SweepChart.tsx';
import { SegmentedSwitch } from '../core/form/SegmentedSwitch.tsx';

export interface SweepChartsProps {
  sources: SweepSource[];
  /** The step running now (live sweep): its load marks the load chart. */
  running?: { index: number; load: SweepLoad; fraction: number } | null;
  width?: number;
}

export function SweepCharts({ sources, running, width }: SweepChartsProps) {
  const [metric, setMetric] = useState<LatencyMetric>('ttft');
  const streams = chartsStream(sources);
  const lat = useMemo(() => latencyChart(sources, metric), [sources, metric]);
  const user = useMemo(() => (streams ? perUserChart(sources) : inputChart(sources)), [sources, streams]);
  const other = leftOut(sources);
  const good = useMemo(() => goodputChart(sources), [sources]);
  const runX =
    running &&
    running.load.value !== 'inf' &&
    (good.xLabel === 'concurrency') === (running.load.kind === 'concurrency')
      ? {
          x: running.load.value,
          label: `step ${running.index + 1} running (${Math.round(running.fraction * 100)} %)`,
        }
      : null;
  const half = width ? Math.floor((width - 16) / 2) : undefined;
  return (
    <div className="sweep-charts">
      <section className="card sweep-card">
        <header className="card-head">
          <h3>{streams ? 'Latency vs throughput' : 'E2E latency vs request throughput'}</h3>
          <span className="spacer" />
          {streams && (
            <SegmentedSwitch
              label="Latency metric"
              value={metric}
              onChange={setMetric}
              segments={LATENCY_METRICS.map((m) => ({
                value: m.id,
                label: m.label,
                testId: `sweep-metric-${m.id}`,
              }))}
            />
          )}
        </header>
        <p className="muted sweep-hint" data-testid="sweep-latency-hint">
          p99 solid, p50 dashed; each point a step, in order of load; log scale.
          {!streams &&
            ' Answered whole (embeddings, rerank): E2E latency — sent to the whole answer — against the requests per second achieved.'}
          {other.length > 0 &&
            ` Not drawn here: ${other.map((o) => o.label).join(', ')} (${streams ? 'answered whole' : 'a token stream'}: another x axis).`}
        </p>
        <SweepChart
          data={lat}
          logY
          testId="sweep-chart-latency"
          title={
            streams
              ? `${metric} p50 and p99 against output tokens per second`
              : 'E2E p50 and p99 against requests per second'
          }
          width={width}
          height={300}
        />
      </section>
      <div className="sweep-row">
        <section className="card sweep-card">
          <header className="card-head">
            <h3>{streams ? 'Per-user speed vs total throughput' : 'Input throughput vs load'}</h3>
          </header>
          <SweepChart
            data={user}
            testId={streams ? 'sweep-chart-per-user' : 'sweep-chart-input'}
            title={
              streams
                ? 'tokens per second per user against total output tokens per second'
                : 'input tokens per second against the offered load'
            }
            width={half}
          />
        </section>
        <section className="card sweep-card">
          <header className="card-head">
            <h3>Throughput and goodput vs load</h3>
            {running && <span className="muted">now: {loadText(running.load)}</span>}
          </header>
          <SweepChart
            data={good}
            running={runX}
            testId="sweep-chart-goodput"
            title="requests per second and goodput against the offered load"
            width={half}
          />
        </section>
      </div>
    </div>
  );
}
