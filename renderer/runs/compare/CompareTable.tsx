/**
 * The comparison's tables: every number side by side with each run's change against A (its
 * verdict, 95 % interval and whether the failure rates make it say little), and for pooled
 * repeats the run-to-run spread of their headline numbers.
 */
import { Fragment } from 'react';
import { fmtBucket, fmtCompact, fmtLatency } from '../../core/format.ts';
import { fmtPointChange, UNRELIABLE_NOTE, VERDICT_TEXT } from '../../../shared/runs/compare/export.ts';
import type { SpreadRow } from '../../../shared/runs/compare/pooled.ts';
import type { QuantileBucket } from '../../../shared/runs/summary/server-quantile.ts';
import { bucketChangeText, RUN_COLORS, tooFewText, type CompareRow } from './run-compare.ts';
import type { Comparison } from './use-comparison.ts';
import { LETTERS } from '../../../shared/runs/letters.ts';

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

/** "Numbers side by side": a value column per run, and a "vs A" column after each but A's. */
export function CompareTable({
  labels,
  rows,
  anyUnreliable,
}: {
  labels: Comparison['labels'];
  rows: CompareRow[];
  anyUnreliable: boolean;
}) {
  return (
    <section className="card" aria-label="Numbers side by side">
      <div className="table-scroll">
        <table className="run-table num compare-table" data-testid="compare-table">
          <CompareHead first="metric" runs={labels.length} />
          <tbody>
            {rows.map((r) => (
              <CompareTableRow key={r.def.id} row={r} />
            ))}
          </tbody>
        </table>
      </div>
      {anyUnreliable && <p className="muted caption">{UNRELIABLE_NOTE}</p>}
    </section>
  );
}

/** "Run-to-run spread": a table per pooled column, its repeats' headline numbers. */
export function SpreadSection({ spreads }: { spreads: Comparison['spreads'] }) {
  return (
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

export function CompareTableRow({ row }: { row: CompareRow }) {
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
              tooFew={row.tooFew[i] === true ? tooFewText(row) : null}
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
  tooFew,
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
  /** Said instead of an interval and a verdict: the quantile rests on too few requests. */
  tooFew: string | null;
  unreliable: boolean;
  verdict: CompareRow['verdict'][number];
  baseline: boolean;
}) {
  const fmt = (x: number) => (absolute ? fmtPointChange(x) : fmtRel(x));
  const tip = [
    verdict ? VERDICT_TEXT[verdict] : null,
    ci ? `95 % interval of the change: ${fmt(ci[0])} to ${fmt(ci[1])}` : null,
    tooFew ? `${tooFew}: fewer than 4 requests lie above it in a run, so no interval is honest` : null,
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
          {tooFew && (
            <span className="compare-ci" data-testid="compare-too-few">
              {tooFew}
            </span>
          )}
        </td>
      )}
    </>
  );
}

/** A comparison table's head: the first column's name, then each run (its colour, its letter) and its change against A. */
export function CompareHead({ first, runs }: { first: string; runs: number }) {
  return (
    <thead>
      <tr>
        <th>{first}</th>
        {Array.from({ length: runs }, (_, i) => (
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
  );
}
