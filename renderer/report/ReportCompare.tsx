/**
 * A report's comparison: which run is which, the workload differences, the failure banner, the
 * numbers side by side with their 95 % intervals (the app's CompareTable, rows computed by the
 * app's comparisonVerdicts from the summaries and intervals the core worked out), spreads and CDFs.
 */
import { useMemo } from 'react';
import type { ReportComparison, ReportRun } from '../../shared/report/report-types.ts';
import { LETTERS } from '../../shared/runs/letters.ts';
import { fmtDateTime } from '../core/format-date.ts';
import { CompareTable, SpreadSection } from '../runs/compare/CompareTable.tsx';
import { ByModelCompare } from '../runs/compare/ByModelCompare.tsx';
import { comparisonVerdicts, RUN_COLORS, SAME_WITHIN } from '../runs/compare/run-compare.ts';
import { CompareCdfs } from '../runs/compare/RunCompareView.tsx';

/** The rows, banner and workload differences, as the app's comparison view derives them. @internal exported for its tests */
export function comparisonView(c: ReportComparison) {
  return comparisonVerdicts(c.summaries, c.headers, c.intervals ? new Map(c.intervals) : null, c.sameWithin);
}

export function ReportCompare({ c, runs }: { c: ReportComparison; runs: readonly ReportRun[] }) {
  const { rows, banner, anyUnreliable, diffs, byModel } = useMemo(() => comparisonView(c), [c]);
  return (
    <div className="run-compare" data-testid="report-compare">
      <section className="card">
        <header className="card-head">
          <h2>Comparing {c.labels.length} runs</h2>
          <span className="muted">
            each against A · green better, red worse, grey the same (the whole interval within ±
            {+((c.sameWithin ?? SAME_WITHIN) * 100).toFixed(2)} %) or not distinguishable from noise · [low,
            high]: 95 % interval of the change
          </span>
        </header>
        <ol className="compare-legend">
          {c.labels.map((l, i) => {
            const when = c.headers[i]?.startedAtWall ?? runs[i]?.entry.startedAtWall;
            return (
              <li key={i} data-testid="report-compare-run">
                <i className="sw" style={{ background: RUN_COLORS[i] }} />
                <b>{LETTERS[i]}</b> <span className="run-name">{l.label}</span>
                <span className="mono muted">
                  {l.model} · {l.url}
                </span>
                {when !== undefined && Number.isFinite(when) && (
                  <span className="muted">{fmtDateTime(when)}</span>
                )}
              </li>
            );
          })}
        </ol>
        {diffs.length > 0 && (
          <p className="banner warn" data-testid="compare-workload-diff">
            The workloads differ: {diffs.join(' · ')}. Differences below mix the servers’ and the workloads’
            effects.
          </p>
        )}
        <p className="muted caption">{c.definitionsLine}</p>
        {c.clients && <p className="caption muted wrap">{c.clients}</p>}
        {banner && (
          <p className={`banner ${anyUnreliable ? 'warn' : 'info'}`} data-testid="compare-failure-banner">
            {banner}
          </p>
        )}
        <p className="muted caption">
          {c.intervals
            ? 'Intervals: requests resampled with replacement (a request’s gaps stay together; throughputs with each request’s share of the run’s time), 1,000 replicates, seeded — the same runs always give the same intervals. Failure rate: Newcombe score interval. Pooled repeats: widened by the drift between them.'
            : 'No intervals were computed for this report.'}
        </p>
      </section>
      <CompareTable labels={c.labels} rows={rows} anyUnreliable={anyUnreliable} />
      <ByModelCompare labels={c.labels} byModel={byModel} />
      {c.spreads.some(Boolean) && <SpreadSection spreads={c.spreads} />}
      <CompareCdfs cdfs={c.cdfs} />
    </div>
  );
}
