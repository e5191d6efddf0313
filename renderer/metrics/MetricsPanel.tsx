/**
 * Server metrics of the selected target, beside the stream debugger: the scraper's status, the
 * key concepts over a shared time axis with this client's requests on it, client vs server, and
 * the explorer. Scrapes only while shown (use-metrics-watch). The data lives outside React
 * (metrics/metrics-store.ts); this view re-reads it when a scrape arrives and as the clock moves.
 *
 * "Side by side with" a second target: both are scraped, and each gets a column (its status, the
 * same charts in the same order, client vs server) on the one wall-clock axis, so two servers
 * under the same load (the composer's side-by-side send, or a run on each) read row by row.
 */
import { useMemo } from 'react';
import type { TargetView } from '../../shared/api.ts';
import { comparisonFor } from './client-vs-server.ts';
import { metricsStore, type ScrapePoint } from './metrics-store.ts';
import { chartPeaks, maxPeaks, panelData, type ChartPeaks, type PanelData } from './panel-data.ts';
import { usePanelStore } from './panel-store.ts';
import { useMetricsStore } from './summary-store.ts';
import { axisDomain, windowMs } from './time-axis.ts';
import { useAppStore, useSelectedTarget } from '../core/app-store.ts';
import { useRequestStore } from '../request/request-store.ts';
import { ClientVsServer } from './ClientVsServer.tsx';
import { MetricExplorer } from './MetricExplorer.tsx';
import { GpuCards } from './GpuCards.tsx';
import { MetricsCharts } from './MetricsCharts.tsx';
import { MetricsStatus } from './MetricsStatus.tsx';
import { MetricsToolbar } from './MetricsToolbar.tsx';
import { useMetricsWatch } from './use-metrics-watch.ts';
import { useNow } from './use-now.ts';

interface Props {
  /** Fixed chart width (tests); otherwise charts fill their cards. */
  chartWidth?: number;
}

/** What a change of makes the core restart a target's scraper. */
const urlsOf = (t: TargetView | null): string =>
  t ? [t.baseUrl, t.metricsUrl, t.prometheusUrl, t.prometheusSelector].join(' ') : '';

export function MetricsPanel({ chartWidth }: Props) {
  const target = useSelectedTarget();
  const targets = useAppStore((s) => s.targets);
  const compareId = usePanelStore((s) => s.compareTargetId);
  const other = targets.find((t) => t.id === compareId && t.id !== target?.id) ?? null;
  const id = target?.id ?? null;
  const ids = [id, other?.id ?? null].filter((x): x is string => x !== null);
  useMetricsWatch(ids, urlsOf(target) + '\n' + urlsOf(other));
  const win = usePanelStore((s) => s.window);
  // Each scrape re-renders the panel (and slides the axis); without scrapes (failing, starting)
  // a 1 s clock keeps the axis moving so the gap shows.
  const scraping = useMetricsStore((s) => ids.every((x) => s.targets[x]?.state?.status === 'ok'));
  const versions = useMetricsStore((s) => ids.map((x) => s.targets[x]?.version ?? 0).join(','));
  const history = useRequestStore((s) => s.history);
  useNow(1000, !scraping);
  // The axis ends "now" on the core's clock (the clock of scrape and request times).
  // Watching began inside the window: the axis starts there, not with a mostly empty minute.
  const firsts = ids.map((x) => metricsStore.get(x)?.first?.t ?? null).filter((t): t is number => t !== null);
  const { start, end, clipped } = axisDomain(
    Math.round(metricsStore.coreNow()),
    windowMs(win),
    firsts.length ? Math.min(...firsts) : null,
  );
  const domain: [number, number] = useMemo(() => [start, end], [start, end]);
  const idsKey = ids.join('\n');
  // Each target's scrapes as chart data over the axis, recomputed when a scrape arrives.
  const pointSets = useMemo(
    () =>
      (idsKey ? idsKey.split('\n') : []).map((x) => ({
        id: x,
        points: versions !== '' ? (metricsStore.get(x)?.scrapes.toArray() ?? []) : [],
      })),
    [idsKey, versions],
  );
  const views = useMemo(
    () => pointSets.map((v) => ({ ...v, data: panelData(v.points, start, end) })),
    [pointSets, start, end],
  );
  // Side by side: one y scale per chart across both targets.
  const shared = useMemo(
    () =>
      views.length > 1
        ? maxPeaks(views.map((v) => chartPeaks(v.data, history, v.id, start, end)))
        : undefined,
    [views, history, start, end],
  );
  if (!target || !id) return <p className="empty">No target selected: pick or add one in the composer.</p>;
  const others = targets.filter((t) => t.id !== id);
  const viewOf = (x: string) =>
    views.find((v) => v.id === x) ?? { points: [], data: panelData([], start, end) };
  return (
    <div className="metrics-panel" data-testid="metrics-panel">
      {!other && <MetricsStatus target={target} />}
      <MetricsToolbar
        target={target}
        other={other}
        others={others}
        win={win}
        watchingSince={clipped && firsts.length ? Math.min(...firsts) : null}
      />
      {other ? (
        <div className="metrics-columns" data-testid="metrics-columns">
          {[target, other].map((t, i) => (
            <section
              key={t.id}
              className="metrics-column"
              aria-label={`Server metrics of ${t.name}`}
              data-testid="metrics-column"
              data-target-id={t.id}
            >
              <h3 className="metrics-column-head">
                <span className="mc-letter">{i === 0 ? 'A' : 'B'}</span> {t.name}
              </h3>
              <MetricsStatus target={t} />
              <TargetMetrics
                target={t}
                {...viewOf(t.id)}
                domain={domain}
                chartWidth={chartWidth}
                sharedPeaks={shared}
              />
            </section>
          ))}
        </div>
      ) : (
        <TargetMetrics target={target} {...viewOf(id)} domain={domain} chartWidth={chartWidth} explorer />
      )}
    </div>
  );
}

/** One target's charts, client vs server and (alone) the explorer, over the panel's axis. */
function TargetMetrics({
  target,
  points,
  data,
  domain,
  chartWidth,
  sharedPeaks,
  explorer = false,
}: {
  target: TargetView;
  points: ScrapePoint[];
  data: PanelData;
  domain: [number, number];
  chartWidth?: number;
  sharedPeaks?: ChartPeaks;
  explorer?: boolean;
}) {
  const id = target.id;
  const profileName = useMetricsStore((s) => s.targets[id]?.meta?.profileName ?? '');
  const profile = useMetricsStore((s) => s.targets[id]?.meta?.profile);
  const failing = useMetricsStore(
    (s) => s.targets[id]?.state?.status === 'failing' || !!s.targets[id]?.watchError,
  );
  const cvsWin = usePanelStore((s) => s.cvsWindow);
  const history = useRequestStore((s) => s.history);
  const tm = metricsStore.get(id);
  const comparison = useMemo(
    () =>
      tm
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
  if (failing && points.length === 0)
    // Nothing to chart, compare or explore until one scrape succeeds: one message, not eight empty charts.
    return (
      <section className="card">
        <p className="empty" data-testid="metrics-no-data">
          No server metrics for {target.name} yet: every scrape so far has failed (above). Charts, the client
          vs server comparison and the explorer appear with the first good scrape.
        </p>
      </section>
    );
  return (
    <>
      <MetricsCharts
        targetId={id}
        profile={profile}
        profileName={profileName || 'unknown server'}
        data={data}
        domain={domain}
        requests={history}
        scrapes={points.length}
        failing={failing}
        chartWidth={chartWidth}
        sharedPeaks={sharedPeaks}
      />
      <GpuCards targetId={id} domain={domain} chartWidth={chartWidth} />
      <ClientVsServer
        comparison={comparison}
        hasTtft={points.some((p) => p.concepts.ttftHistogram !== null)}
      />
      {explorer && <MetricExplorer targetId={id} domain={domain} chartWidth={chartWidth} />}
    </>
  );
}
