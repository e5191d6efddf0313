/**
 * Every series the server exposes: search by name, labels or help text; click one to plot it
 * (a counter as rate/s, a gauge as its value, a histogram as p50/p90/p99 per step or as a
 * heatmap). Data from the per-series rings in metrics/series-store.ts.
 */
import { Fragment, useMemo, useState } from 'react';
import { fmtSeriesValue, searchSeries } from './explorer.ts';
import { metricsStore } from './metrics-store.ts';
import { useMetricsStore } from './summary-store.ts';
import { ExplorerChart } from './ExplorerChart.tsx';

interface Props {
  targetId: string;
  domain: [number, number];
  chartWidth?: number;
}

const LIMIT = 200;

/** A metric name that may wrap only after `_` or `:` (never mid-word: "process_start_time_se conds"). */
function breakable(name: string) {
  const parts = name.split(/(?<=[_:])/);
  return parts.map((p, i) => (
    <Fragment key={i}>
      {p}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

export function MetricExplorer({ targetId, domain, chartWidth }: Props) {
  const version = useMetricsStore((s) => s.targets[targetId]?.version ?? 0);
  const dropped = useMetricsStore((s) => s.targets[targetId]?.seriesDropped ?? 0);
  const truncated = useMetricsStore((s) => s.targets[targetId]?.meta?.explorerTruncated ?? false);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const tm = metricsStore.get(targetId);
  // The rings change in place; `version` says when (it is a dependency for that reason).
  const list = useMemo(() => (version >= 0 && tm ? tm.series.list() : []), [tm, version]);
  const { rows, total } = useMemo(() => searchSeries(list, tm?.help ?? {}, query, LIMIT), [list, tm, query]);
  const buffer = selected ? tm?.series.get(selected) : undefined;
  return (
    <section className="card explorer" aria-label="Metric explorer">
      <header className="card-head">
        <h3 title="Every series of the last scrape, as the server names them">Metric explorer</h3>
        <span className="muted">
          {total === list.length ? `${list.length} series` : `${total} of ${list.length} series match`}
          {dropped > 0 || truncated ? ' · some series not kept (cap reached)' : ''}
        </span>
        <input
          className="explorer-search"
          data-testid="explorer-search"
          type="search"
          placeholder="Search names, labels, help…"
          title='Words match the name, labels and help text, e.g. tokens engine="0"'
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label="Search series"
        />
      </header>
      <div className="explorer-body">
        <ul className="explorer-list" role="listbox" aria-label="Series">
          {rows.map((r) => (
            <li key={r.key}>
              <button
                type="button"
                role="option"
                aria-selected={r.key === selected}
                className={`explorer-row${r.key === selected ? ' selected' : ''}`}
                data-testid="explorer-series-row"
                data-key={r.key}
                title={r.help || r.key}
                onClick={() => setSelected(r.key)}
              >
                <span className={`badge tiny type-${r.type}`}>{r.type}</span>
                <span className="explorer-name mono">
                  <b>{breakable(r.key.slice(0, r.key.length - r.labels.length))}</b>
                  <span className="muted">{r.labels}</span>
                </span>
                <span className="explorer-value">{fmtSeriesValue(r.key, r.labels, r.value)}</span>
              </button>
            </li>
          ))}
          {total > rows.length && <li className="empty">{total - rows.length} more: refine the search.</li>}
          {list.length > 0 && total === 0 && <li className="empty">No series matches “{query}”.</li>}
          {list.length === 0 && <li className="empty">No series yet: waiting for a scrape.</li>}
        </ul>
        <div className="explorer-detail">
          {buffer ? (
            <ExplorerChart
              buffer={buffer}
              help={tm?.help[buffer.meta.family] ?? ''}
              domain={domain}
              width={chartWidth}
            />
          ) : (
            <p className="empty">
              Pick a series to plot it: counters as rate per second, gauges as values, histograms as quantiles
              or a heatmap.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
