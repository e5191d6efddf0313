/**
 * A run's three over-time charts — output tokens/s, requests/s (completed and failed), and
 * concurrency (in flight, queued) — on the run's own time axis (s since its start). The same
 * component draws the live dashboard (fed ~1 Hz from the store) and a finished run's summary.
 */
import { memo } from 'react';
import { C } from '../../core/charts/theme.ts';
import { fmtCompact } from '../../core/format.ts';
import type { TimePoint } from './run-series.ts';
import { SeriesChart } from './SeriesChart.tsx';

const per = (unit: string) => (v: number) => `${fmtCompact(v)} ${unit}`;

export interface OverTimeProps {
  /** 1-s buckets with tokS, reqS, errS. */
  throughput: TimePoint[];
  /** inFlight and queued over time. */
  concurrency: TimePoint[];
  /** Right end of the time axis, s. */
  xMax: number;
  /** Test ids: `${idPrefix}-tok-chart`, `-req-chart`, `-conc-chart`. */
  idPrefix: string;
  /** While live, the current second is not drawn until it is over; finished, the last partial one is scaled. */
  live: boolean;
  /** Fixed chart width (component tests); else the card's width. */
  width?: number;
  /** False for embeddings/rerank runs: no tokens stream, so no output tokens/s chart (not a line at 0). */
  tokens?: boolean;
}

export const OverTimeCharts = memo(function OverTimeCharts({
  throughput,
  concurrency,
  xMax,
  idPrefix,
  live,
  width,
  tokens = true,
}: OverTimeProps) {
  const empty = live ? 'first second not over yet' : undefined;
  return (
    <div className={tokens ? 'run-grid3' : 'run-grid2'}>
      {tokens && (
        <section className="card mchart" aria-label="Output token throughput">
          <header className="card-head mchart-head">
            <h3
              title={
                live
                  ? 'Output tokens received per second, in 1-s buckets (from the streamed events).'
                  : 'Output tokens received per second, in 1-s buckets (the last, partial second scaled).'
              }
            >
              Output tokens/s
            </h3>
          </header>
          <SeriesChart
            width={width}
            data={throughput}
            lines={[{ key: 'tokS', name: 'output tok/s', color: C.content }]}
            xMax={xMax}
            yLabel="tok/s"
            format={per('tok/s')}
            testId={`${idPrefix}-tok-chart`}
            empty={empty}
          />
        </section>
      )}
      <section className="card mchart" aria-label="Request throughput">
        <header className="card-head mchart-head">
          <h3 title="Requests finished per second, in 1-s buckets.">Requests/s</h3>
          <ul className="legend mchart-legend">
            <li>
              <i className="sw mline" style={{ borderColor: C.terminal }} />
              completed
            </li>
            <li>
              <i className="sw mline" style={{ borderColor: C.error }} />
              failed
            </li>
          </ul>
        </header>
        <SeriesChart
          width={width}
          data={throughput}
          lines={[
            { key: 'reqS', name: 'completed/s', color: C.terminal },
            { key: 'errS', name: 'failed/s', color: C.error },
          ]}
          xMax={xMax}
          yLabel="req/s"
          format={per('req/s')}
          testId={`${idPrefix}-req-chart`}
          empty={empty}
        />
      </section>
      <section className="card mchart" aria-label="Concurrency">
        <header className="card-head mchart-head">
          <h3 title="Requests in flight (sent, not finished) and queued (arrived, waiting for a client slot).">
            Concurrency
          </h3>
          <ul className="legend mchart-legend">
            <li>
              <i className="sw mline" style={{ borderColor: C.ttft }} />
              in flight
            </li>
            <li>
              <i className="sw mline dashed" style={{ borderColor: C.muted }} />
              queued
            </li>
          </ul>
        </header>
        <SeriesChart
          width={width}
          data={concurrency}
          lines={[
            { key: 'inFlight', name: 'in flight', color: C.ttft, step: true },
            { key: 'queued', name: 'queued', color: C.muted, step: true, dashed: true },
          ]}
          xMax={xMax}
          yLabel="requests"
          integer
          format={per('requests')}
          testId={`${idPrefix}-conc-chart`}
        />
      </section>
    </div>
  );
});
