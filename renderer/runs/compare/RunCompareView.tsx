/**
 * Runs side by side: which run is which (server, model, workload), every number `vllm bench serve`
 * reports and ours against the first run picked (the baseline) with which way is better, and
 * each latency metric's distribution as overlaid CDFs. Differences in the workloads themselves
 * (prompt lengths, request count, rate, concurrency) are said above the numbers: comparing a
 * server against another is only fair on the same workload. The tables are in CompareTable.tsx.
 */
import { fmtDateTime } from '../../core/format-date.ts';
import type { RunDetail, RunEntry } from '../../../shared/runs-api.ts';
import type { DefinitionsId } from '../../../shared/runs/summary/definitions.ts';
import { showNewRun, toggleCompare } from '../run-actions.ts';
import { download, exportReport } from '../run-exports.ts';
import { compareCsv, compareMarkdown } from '../../../shared/runs/compare/export.ts';
import { RUN_COLORS } from './run-compare.ts';
import { DefinitionsSelect } from '../form/DefinitionsSelect.tsx';
import { setRunsMessage, useRunsStore, type ComparedRuns } from '../run-store.ts';
import { useComparison, type Comparison } from './use-comparison.ts';
import { LETTERS } from '../../../shared/runs/letters.ts';
import { CdfCompareChart } from '../charts/CdfCompareChart.tsx';
import { CompareTable, SpreadSection } from './CompareTable.tsx';
import { ByModelCompare } from './ByModelCompare.tsx';

export function RunCompareView() {
  const c = useComparison();
  const { compared } = c;
  if (compared === null) return null;
  const failed = compared.errors
    .map((e, i) => (e ? `${compared.keys[i]}: ${e}` : null))
    .filter((x): x is string => x !== null);
  return (
    <div className="run-compare" data-testid="run-compare" data-ready={c.ready ? 'yes' : 'no'}>
      <section className="card">
        <CompareHead
          title={compareTitle(c.ready ? c.columns.length : null, compared.keys.length)}
          sameWithin={c.sameWithin}
          exports={
            c.ready
              ? {
                  markdown: () =>
                    compareMarkdown(c.labels, withModelRows(c), c.diffs, c.banner, c.under?.line ?? null),
                  csv: () => compareCsv(c.labels, withModelRows(c), c.under?.definitions ?? 'tokenscope'),
                  report: () => void exportReport(compared.keys, c.under?.definitions ?? undefined),
                }
              : null
          }
        />
        <CompareLegend
          items={legendItems(c.ready ? c.columns : null, compared)}
          labels={c.labels}
          loading={compared.loading}
          runs={c.runs}
        />
        {failed.length > 0 && (
          <p className="field-error" role="alert">
            Could not read: {failed.join('; ')}
          </p>
        )}
        {c.diffs.length > 0 && (
          <p className="banner warn" data-testid="compare-workload-diff">
            The workloads differ: {c.diffs.join(' · ')}. Differences below mix the servers’ and the workloads’
            effects.
          </p>
        )}
        {c.ready && c.under && (
          <CompareDefinitions under={c.under} clients={c.clients} onPick={c.setAskedDefs} />
        )}
        {c.ready && <SameWithin value={c.sameWithin} onChange={c.setSameWithin} />}
        {c.banner && (
          <p className={`banner ${c.anyUnreliable ? 'warn' : 'info'}`} data-testid="compare-failure-banner">
            {c.banner}
          </p>
        )}
        {c.ready && (
          <p className="muted caption" data-testid="compare-ci-status">
            {c.ci
              ? 'Intervals: requests resampled with replacement (a request’s gaps stay together; throughputs with each request’s share of the run’s time), 1,000 replicates, seeded — the same runs always give the same intervals. Failure rate: Newcombe score interval. Pooled repeats: widened by the drift between them.'
              : 'Computing 95 % intervals…'}
          </p>
        )}
      </section>
      {c.ready && (
        <>
          <CompareTable labels={c.labels} rows={c.rows} anyUnreliable={c.anyUnreliable} />
          <ByModelCompare labels={c.labels} byModel={c.byModel} />
          {c.spreads.some(Boolean) && <SpreadSection spreads={c.spreads} />}
          <CompareCdfs cdfs={c.cdfs} />
        </>
      )}
      {!c.ready && compared.loading && <p className="muted caption">Reading the runs…</p>}
    </div>
  );
}

/** The rows an export writes: the overall ones, then each model's (model mixes), as `compare` prints them. */
const withModelRows = (c: Comparison) => [...c.rows, ...(c.byModel?.models.flatMap((m) => m.rows) ?? [])];

/** The heading: how many runs (columns, once read), or that they are repeats of one workload pooled. */
function compareTitle(columns: number | null, picked: number): string {
  return columns === 1
    ? `${picked} repeats of one workload, pooled`
    : `Comparing ${columns ?? picked} runs${
        columns !== null && columns < picked ? ` (${picked} with repeats)` : ''
      }`;
}

/** The comparison's head: its title, what the colours mean, the exports (once read), Close. */
function CompareHead({
  title,
  sameWithin,
  exports,
}: {
  title: string;
  sameWithin: number;
  /** The table as Markdown and as CSV, made when asked for; null until the runs are read. */
  exports: { markdown: () => string; csv: () => string; report: () => void } | null;
}) {
  return (
    <header className="card-head">
      <h2>{title}</h2>
      <span className="muted">
        each against A, the first picked · green better, red worse, grey the same (the whole interval within ±
        {+(sameWithin * 100).toFixed(2)} %) or not distinguishable from noise · [low, high]: 95 % interval of
        the change
      </span>
      <span className="spacer" />
      {exports && (
        <>
          <button
            type="button"
            className="btn tiny"
            data-testid="compare-copy-md"
            title="Copy the table as Markdown (for an issue, a doc, a chat)"
            onClick={() => void copyMarkdown(exports.markdown())}
          >
            Copy as Markdown
          </button>
          <button
            type="button"
            className="btn tiny"
            data-testid="compare-csv"
            title="Download the table as CSV (numbers with a unit column, change in %, verdicts)"
            onClick={() =>
              download({
                filename: 'comparison.csv',
                mime: 'text/csv',
                content: exports.csv(),
              })
            }
          >
            CSV
          </button>
          <button
            type="button"
            className="btn tiny"
            data-testid="compare-report"
            title="One self-contained HTML file: this comparison and each run's numbers, charts and swimlane; opens in any browser, offline"
            onClick={exports.report}
          >
            Export report
          </button>
        </>
      )}
      <button type="button" className="btn tiny ghost" onClick={() => showNewRun()}>
        Close
      </button>
    </header>
  );
}

/** The equivalence margin: a change is "same" when its whole 95 % interval lies within ±this. */
function SameWithin({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  return (
    <label
      className="muted caption"
      title="Equivalence margin: a change is the same when its whole 95 % interval lies within ±this (tokenscope compare --same-within)"
    >
      same within ±{' '}
      <input
        type="number"
        className="tiny"
        data-testid="compare-same-within"
        min={0}
        max={50}
        step={0.5}
        value={+(value * 100).toFixed(2)}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (Number.isFinite(v) && v >= 0 && v < 100) onChange(v / 100);
        }}
      />{' '}
      %
    </label>
  );
}

/** To the clipboard; where the page may not write it (no permission), as a file instead. */
async function copyMarkdown(md: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(md);
    setRunsMessage({ tone: 'info', text: 'Copied the comparison as Markdown.' });
  } catch {
    download({ filename: 'comparison.md', mime: 'text/markdown', content: md });
    setRunsMessage({
      tone: 'info',
      text: 'The clipboard is not available here: saved comparison.md instead.',
    });
  }
}

/** One legend line: the runs of a column (repeats: several), the first one read, how many. */
interface LegendItem {
  keys: string[];
  d: RunDetail | null;
  n: number;
}

/** The legend's lines: a column each once read (`columns`), else each run picked as it loads. */
function legendItems(columns: readonly RunDetail[][] | null, compared: ComparedRuns): LegendItem[] {
  return columns
    ? columns.map((col) => ({ keys: col.map((d) => d.entry.key), d: col[0]!, n: col.length }))
    : compared.keys.map((k, i) => ({ keys: [k], d: compared.details[i] ?? null, n: 1 }));
}

/** Which run is which: letter and colour, name, model and server, when; and taking it out. */
function CompareLegend({
  items,
  labels,
  loading,
  runs,
}: {
  items: LegendItem[];
  labels: Comparison['labels'];
  loading: boolean;
  runs: RunEntry[];
}) {
  const nameOf = (key: string) => {
    const e = runs.find((r) => r.key === key);
    return e?.name || 'Load run';
  };
  return (
    <ol className="compare-legend">
      {items.map(({ keys, d, n }, i) => {
        const k = keys[0]!;
        const when = d ? new Date(d.entry.startedAtWall) : null;
        return (
          <li key={k} data-testid="compare-run">
            <i className="sw" style={{ background: RUN_COLORS[i] }} />
            <b>{LETTERS[i]}</b>{' '}
            <span className="run-name">
              {d ? (n > 1 ? labels[i]!.label : d.entry.name || nameOf(k)) : nameOf(k)}
            </span>
            <span className="mono muted">
              {d ? `${d.entry.model} · ${d.entry.url}` : loading ? 'loading…' : 'not readable'}
            </span>
            {when && Number.isFinite(when.getTime()) && (
              <span className="muted">{fmtDateTime(when.getTime())}</span>
            )}
            <button
              type="button"
              className="btn tiny ghost"
              onClick={() => {
                for (const key of keys) toggleCompare(key);
                useRunsStore.setState({ view: { kind: 'new' } });
              }}
              title={
                n > 1 ? 'Take these repeats out of the comparison' : 'Take this run out of the comparison'
              }
            >
              remove
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** Whose definitions the runs are compared under (a picker), which runs were re-derived, and why not. */
function CompareDefinitions({
  under,
  clients,
  onPick,
}: {
  under: NonNullable<Comparison['under']>;
  clients: string | null;
  onPick: (d: DefinitionsId) => void;
}) {
  return (
    <div className="compare-defs" data-testid="compare-definitions">
      <label>
        Definitions{' '}
        <DefinitionsSelect
          testId="compare-definitions-select"
          value={under.definitions ?? 'tokenscope'}
          onChange={onPick}
          title="Whose per-request rules (first token, gaps, end, success, peak) every run is compared under; Tokenscope runs are re-derived from their events"
        />
      </label>
      {under.runs?.some((r) => r.rederived) || under.definitions !== 'tokenscope' ? (
        <span className="muted" data-testid="compare-definitions-line">
          {under.line}
        </span>
      ) : (
        <span className="muted">each run as Tokenscope measured it</span>
      )}
      {clients && (
        <p className="caption muted wrap" data-testid="compare-clients-note">
          {clients}
        </p>
      )}
      {under.error && (
        <p className="field-error" role="alert" data-testid="compare-definitions-error">
          {under.error}
        </p>
      )}
    </div>
  );
}

/** Each latency metric's distribution per run, as overlaid CDFs. */
export function CompareCdfs({ cdfs }: { cdfs: Comparison['cdfs'] }) {
  return (
    <div className="run-grid2">
      {cdfs.map(({ id, metric, name, series }) => {
        return (
          <section key={id} className="card mchart" aria-label={`${name} distributions`}>
            <header className="card-head mchart-head">
              <h3 title="Share of requests (tokens, for ITL) at or below each latency: further left is faster, a long flat top is a tail.">
                {name} · CDF
              </h3>
              <ul className="legend mchart-legend">
                {series.map((s) => (
                  <li key={s.name}>
                    <i className="sw mline" style={{ borderColor: s.color }} />
                    {s.name}
                  </li>
                ))}
              </ul>
            </header>
            <CdfCompareChart series={series} testId={`compare-cdf-${metric}`} />
          </section>
        );
      })}
    </div>
  );
}
