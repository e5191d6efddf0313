/**
 * Runs side by side: which run is which (server, model, workload), every number `vllm bench serve`
 * reports and ours against the first run picked (the baseline) with which way is better, and
 * each latency metric's distribution as overlaid CDFs. Differences in the workloads themselves
 * (prompt lengths, request count, rate, concurrency) are said above the numbers: comparing a
 * server against another is only fair on the same workload.
 */
import { fmtDateTime } from '../core/format-date.ts';
import { Fragment } from 'react';
import { fmtCompact, fmtLatency } from '../core/format.ts';
import { download, showNewRun, toggleCompare } from './run-actions.ts';
import {
  compareCsv,
  compareMarkdown,
  fmtPointChange,
  UNRELIABLE_NOTE,
  VERDICT_TEXT,
} from '../../shared/runs/compare-export.ts';
import { bucketChangeText, RUN_COLORS, type CompareRow } from './run-compare.ts';
import { type SpreadRow } from '../../shared/runs/pooled.ts';
import { DefinitionsSelect } from './DefinitionsSelect.tsx';
import { setRunsMessage, useRunsStore } from './run-store.ts';
import { LETTERS, useComparison } from './use-comparison.ts';
import { CdfCompareChart } from './RunCharts.tsx';
import { fmtBucket } from '../core/format.ts';
import type { QuantileBucket } from '../../shared/runs/server-quantile.ts';

function fmtValue(v: number | null, unit: CompareRow['def']['unit']): string {
  if (v === null) return '—';
  if (unit === 'ms') return fmtLatency(v);
  if (unit === 's') return `${v.toFixed(2)} s`;
  if (unit === 'count') return v.toLocaleString('en-US');
  return `${fmtCompact(v)} ${unit}`;
}

function fmtRel(r: number): string {
  const pct = r * 100;
  const a = Math.abs(pct);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${a.toFixed(digits)} %`;
}

export function RunCompareView() {
  const {
    compared,
    runs,
    ready,
    columns,
    under,
    clients,
    ci,
    rows,
    banner,
    anyUnreliable,
    diffs,
    labels,
    spreads,
    cdfs,
    setAskedDefs,
  } = useComparison();
  if (compared === null) return null;
  const failed = compared.errors
    .map((e, i) => (e ? `${compared.keys[i]}: ${e}` : null))
    .filter((x): x is string => x !== null);
  const nameOf = (key: string) => {
    const e = runs.find((r) => r.key === key);
    return e?.name || 'Load run';
  };
  return (
    <div className="run-compare" data-testid="run-compare" data-ready={ready ? 'yes' : 'no'}>
      <section className="card">
        <header className="card-head">
          <h2>
            {ready && columns.length === 1
              ? `${compared.keys.length} repeats of one workload, pooled`
              : `Comparing ${ready ? columns.length : compared.keys.length} runs${
                  ready && columns.length < compared.keys.length
                    ? ` (${compared.keys.length} with repeats)`
                    : ''
                }`}
          </h2>
          <span className="muted">
            each against A, the first picked · green better, red worse, grey within 1 % or not distinguishable
            from noise · [low, high]: 95 % interval of the change
          </span>
          <span className="spacer" />
          {ready && (
            <>
              <button
                type="button"
                className="btn tiny"
                data-testid="compare-copy-md"
                title="Copy the table as Markdown (for an issue, a doc, a chat)"
                onClick={() =>
                  void copyMarkdown(compareMarkdown(labels, rows, diffs, banner, under?.line ?? null))
                }
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
                    content: compareCsv(labels, rows, under?.definitions ?? 'tokenscope'),
                  })
                }
              >
                CSV
              </button>
            </>
          )}
          <button type="button" className="btn tiny ghost" onClick={() => showNewRun()}>
            Close
          </button>
        </header>
        <ol className="compare-legend">
          {(ready
            ? columns.map((col) => ({ keys: col.map((d) => d.entry.key), d: col[0]!, n: col.length }))
            : compared.keys.map((k, i) => ({ keys: [k], d: compared.details[i] ?? null, n: 1 }))
          ).map(({ keys, d, n }, i) => {
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
                  {d ? `${d.entry.model} · ${d.entry.url}` : compared.loading ? 'loading…' : 'not readable'}
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
        {failed.length > 0 && (
          <p className="field-error" role="alert">
            Could not read: {failed.join('; ')}
          </p>
        )}
        {diffs.length > 0 && (
          <p className="banner warn" data-testid="compare-workload-diff">
            The workloads differ: {diffs.join(' · ')}. Differences below mix the servers’ and the workloads’
            effects.
          </p>
        )}
        {ready && under && (
          <div className="compare-defs" data-testid="compare-definitions">
            <label>
              Definitions{' '}
              <DefinitionsSelect
                testId="compare-definitions-select"
                value={under.definitions ?? 'tokenscope'}
                onChange={setAskedDefs}
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
        )}
        {banner && (
          <p className={`banner ${anyUnreliable ? 'warn' : 'info'}`} data-testid="compare-failure-banner">
            {banner}
          </p>
        )}
        {ready && (
          <p className="muted caption" data-testid="compare-ci-status">
            {ci
              ? 'Intervals: requests resampled with replacement (a request’s gaps stay together), 1,000 replicates, seeded — the same runs always give the same intervals.'
              : 'Computing 95 % intervals…'}
          </p>
        )}
      </section>
      {ready && (
        <>
          <section className="card" aria-label="Numbers side by side">
            <div className="table-scroll">
              <table className="run-table num compare-table" data-testid="compare-table">
                <thead>
                  <tr>
                    <th>metric</th>
                    {labels.map((_, i) => (
                      <Fragment key={i}>
                        <th>
                          <i className="sw" style={{ background: RUN_COLORS[i] }} /> {LETTERS[i]}
                          {i === 0 ? ' (baseline)' : ''}
                        </th>
                        {i > 0 && <th title={`(${LETTERS[i]} − A) / A`}>vs A</th>}
                      </Fragment>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <CompareTableRow key={r.def.id} row={r} />
                  ))}
                </tbody>
              </table>
            </div>
            {anyUnreliable && <p className="muted caption">{UNRELIABLE_NOTE}</p>}
          </section>
          {spreads.some(Boolean) && (
            <section className="card" aria-label="Run-to-run spread" data-testid="compare-spread">
              <header className="card-head">
                <h3 title="Each repeat's headline numbers: what one run's interval cannot show (warm-up, another tenant, drift)">
                  Run-to-run spread
                </h3>
                <span className="muted">
                  pooled columns above resample requests within each repeat; the spread is between repeats
                </span>
              </header>
              {spreads.map((sp) => (sp ? <SpreadTable key={sp.letter} {...sp} /> : null))}
            </section>
          )}
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
        </>
      )}
      {!ready && compared.loading && <p className="muted caption">Reading the runs…</p>}
    </div>
  );
}

function SpreadTable({ letter, name, rows }: { letter: string; name: string; rows: SpreadRow[] }) {
  const n = rows[0]?.values.length ?? 0;
  const f = (v: number | null, unit: string) =>
    v === null
      ? '—'
      : unit === 'ms'
        ? fmtLatency(v)
        : unit === '%'
          ? `${v.toFixed(2)} %`
          : `${fmtCompact(v)} ${unit}`;
  return (
    <div className="table-scroll">
      <table className="run-table num compare-table" data-testid={`compare-spread-${letter}`}>
        <thead>
          <tr>
            <th>
              {letter} · {name}
            </th>
            {Array.from({ length: n }, (_, i) => (
              <th key={i}>#{i + 1}</th>
            ))}
            <th>mean</th>
            <th title="Sample standard deviation between repeats">± sd</th>
            <th title="Coefficient of variation: sd / mean">CV</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-row={r.id}>
              <th>{r.label}</th>
              {r.values.map((v, i) => (
                <td key={i}>{f(v, r.unit)}</td>
              ))}
              <td>{f(r.mean, r.unit)}</td>
              <td>{r.sd === null ? '—' : f(r.sd, r.unit)}</td>
              <td>{r.cv === null ? '—' : `${(r.cv * 100).toFixed(1)} %`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CompareTableRow({ row }: { row: CompareRow }) {
  const { def } = row;
  return (
    <>
      {def.group && (
        <tr className="compare-group">
          <th colSpan={1 + row.values.length * 2 - 1}>{def.group}</th>
        </tr>
      )}
      <tr data-row={def.id}>
        <th>{def.label}</th>
        {row.values.map((v, i) => {
          const range = row.ranges[i] ?? null;
          const bucketed = row.byBucket[i] === true;
          return (
            <CompareCells
              key={i}
              value={range && v !== null ? fmtBucket(range) : fmtValue(v, def.unit)}
              title={bucketTitle(v, range, row.buckets[i] ?? null)}
              rel={row.rel[i] ?? null}
              relText={bucketed ? bucketChangeText(row, i) : undefined}
              absolute={def.change === 'absolute'}
              ci={row.ci[i] ?? null}
              unreliable={row.unreliable[i] === true}
              verdict={row.verdict[i] ?? null}
              baseline={i === 0}
            />
          );
        })}
      </tr>
    </>
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

function bucketTitle(v: number | null, range: QuantileBucket | null, bucket: QuantileBucket | null) {
  if (v === null) return undefined;
  if (range)
    return `Only known to lie in this bucket of the server's histogram (interpolated: ${fmtLatency(v)})`;
  if (bucket) return `Interpolated in the server's histogram bucket ${fmtBucket(bucket)}`;
  return undefined;
}

function CompareCells({
  value,
  title,
  rel,
  relText,
  absolute,
  ci,
  unreliable,
  verdict,
  baseline,
}: {
  value: string;
  title?: string;
  rel: number | null;
  relText?: string;
  absolute: boolean;
  ci: [number, number] | null;
  unreliable: boolean;
  verdict: CompareRow['verdict'][number];
  baseline: boolean;
}) {
  const fmt = (x: number) => (absolute ? fmtPointChange(x) : fmtRel(x));
  const tip = [
    verdict ? VERDICT_TEXT[verdict] : null,
    ci ? `95 % interval of the change: ${fmt(ci[0])} to ${fmt(ci[1])}` : null,
    unreliable ? 'the failure rates differ: this change says little' : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <td title={title}>{value}</td>
      {!baseline && (
        <td
          className={`compare-rel ${verdict ?? ''}${unreliable ? ' unreliable' : ''}`}
          data-verdict={verdict ?? ''}
          title={tip || undefined}
        >
          {relText ?? (rel === null ? '' : fmt(rel))}
          {unreliable && <span className="compare-flag"> ⚠</span>}
          {ci && !relText && (
            <span className="compare-ci" data-testid="compare-ci">
              [{fmt(ci[0])}, {fmt(ci[1])}]
            </span>
          )}
        </td>
      )}
    </>
  );
}
