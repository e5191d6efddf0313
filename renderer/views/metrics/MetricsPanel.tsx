/**
 * Server metrics of the selected target, beside the stream debugger: the scraper's status, the
 * key concepts over a shared time axis with this client's requests on it, client vs server, and
 * the explorer. Scrapes only while shown (use-metrics-watch). The data lives outside React
 * (metrics/metrics-store.ts); this view re-reads it when a scrape arrives and as the clock moves.
 */
import { useMemo } from 'react';
import { comparisonFor } from '../../metrics/client-vs-server.ts';
import { metricsStore } from '../../metrics/metrics-store.ts';
import { panelData } from '../../metrics/panel-data.ts';
import { setPanel, usePanelStore } from '../../metrics/panel-store.ts';
import { useMetricsStore } from '../../metrics/summary-store.ts';
import { axisDomain, clockLabel, WINDOWS, windowMs } from '../../metrics/time-axis.ts';
import { useSelectedTarget } from '../../stores/app-store.ts';
import { useRequestStore } from '../../stores/request-store.ts';
import { ClientVsServer } from './ClientVsServer.tsx';
import { MetricExplorer } from './MetricExplorer.tsx';
import { MetricsCharts } from './MetricsCharts.tsx';
import { MetricsStatus } from './MetricsStatus.tsx';
import { useMetricsWatch } from './use-metrics-watch.ts';
import { useNow } from './use-now.ts';

interface Props {
  /** Fixed chart width (tests); otherwise charts fill their cards. */
  chartWidth?: number;
}

export function MetricsPanel({ chartWidth }: Props) {
  const target = useSelectedTarget();
  const id = target?.id ?? null;
  useMetricsWatch(
    id,
    target
      ? [target.baseUrl, target.metricsUrl, target.prometheusUrl, target.prometheusSelector].join(' ')
      : '',
  );
  const version = useMetricsStore((s) => (id ? (s.targets[id]?.version ?? 0) : 0));
  const profileName = useMetricsStore((s) => (id ? (s.targets[id]?.meta?.profileName ?? '') : ''));
  const failing = useMetricsStore((s) =>
    id ? s.targets[id]?.state?.status === 'failing' || !!s.targets[id]?.watchError : false,
  );
  const win = usePanelStore((s) => s.window);
  const cvsWin = usePanelStore((s) => s.cvsWindow);
  const history = useRequestStore((s) => s.history);
  // Each scrape re-renders the panel (and slides the axis); without scrapes (failing, starting)
  // a 1 s clock keeps the axis moving so the gap shows.
  const scraping = useMetricsStore((s) => (id ? s.targets[id]?.state?.status === 'ok' : false));
  useNow(1000, !scraping);
  const tm = metricsStore.get(id);
  // The axis ends "now" on the core's clock (the clock of scrape and request times).
  // Watching began inside the window: the axis starts there, not with a mostly empty minute.
  const { start, end, clipped } = axisDomain(
    Math.round(metricsStore.coreNow()),
    windowMs(win),
    tm?.first?.t ?? null,
  );
  const domain: [number, number] = useMemo(() => [start, end], [start, end]);
  const points = useMemo(() => (tm && version >= 0 ? tm.scrapes.toArray() : []), [tm, version]);
  const data = useMemo(() => panelData(points, start, end), [points, start, end]);
  const comparison = useMemo(
    () =>
      tm && id
        ? comparisonFor(
            points.map((p) => ({
              t: p.t,
              ttft: p.concepts.ttftHistogram,
              generationTokensTotal: p.concepts.generationTokensTotal,
            })),
            tm.first,
            tm.totals,
            history,
            id,
            cvsWin,
          )
        : null,
    [tm, id, points, history, cvsWin],
  );
  if (!target || !id) return <p className="empty">No target selected: pick or add one in the composer.</p>;
  return (
    <div className="metrics-panel" data-testid="metrics-panel">
      <MetricsStatus target={target} />
      <div className="metrics-toolbar">
        <h2>
          Server metrics <span className="muted">· {target.name}</span>
        </h2>
        <span className="muted mt-hint">
          x: wall clock{clipped && tm?.first ? ` (watching since ${clockLabel(tm.first.t)})` : ''} · pink:
          this client&apos;s requests
        </span>
        <div className="seg" role="group" aria-label="Time window">
          {WINDOWS.map((w) => (
            <button
              key={w.id}
              type="button"
              className={win === w.id ? 'on' : ''}
              aria-pressed={win === w.id}
              onClick={() => setPanel({ window: w.id })}
            >
              last {w.label}
            </button>
          ))}
        </div>
      </div>
      {failing && points.length === 0 ? (
        // Nothing to chart, compare or explore until one scrape succeeds: one message, not eight empty charts.
        <section className="card">
          <p className="empty" data-testid="metrics-no-data">
            No server metrics for {target.name} yet: every scrape so far has failed (above). Charts, the
            client vs server comparison and the explorer appear with the first good scrape.
          </p>
        </section>
      ) : (
        <>
          <MetricsCharts
            targetId={id}
            profileName={profileName || 'unknown server'}
            data={data}
            domain={domain}
            requests={history}
            scrapes={points.length}
            failing={failing}
            chartWidth={chartWidth}
          />
          <ClientVsServer
            comparison={comparison}
            hasTtft={points.some((p) => p.concepts.ttftHistogram !== null)}
          />
          <MetricExplorer targetId={id} domain={domain} chartWidth={chartWidth} />
        </>
      )}
    </div>
  );
}
