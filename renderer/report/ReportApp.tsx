/**
 * A report (`tokenscope report`, the app's "Export report"): for several runs the comparison
 * first, then each run as the app's run view shows it — the same components (summary numbers,
 * statistics, server side, over-time charts, swimlane, histograms, the vLLM-style text) in a
 * read-only page: no actions, no definitions picker, every number as the run was measured.
 */
import { useMemo } from 'react';
import type { ReportData, ReportRun } from '../../shared/report/report-types.ts';
import { DEFINITIONS } from '../../shared/runs/summary/definitions.ts';
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { fmtDateTime } from '../core/format-date.ts';
import { RunBadges } from '../runs/summary/RunBadges.tsx';
import { CompareCdfs } from '../runs/compare/RunCompareView.tsx';
import { RunFileNotes, RunHistograms, RunText, RunTimeline } from '../runs/summary/RunSummaryView.tsx';
import { ServerSideCard } from '../runs/summary/ServerSideCard.tsx';
import { StatsTable, SummaryNumbers } from '../runs/summary/SummaryNumbers.tsx';
import { streamsTokens } from '../../shared/runs/summary/batch.ts';
import { PrefixCacheTable } from '../runs/summary/PrefixCacheTable.tsx';
import { UploadTable } from '../runs/summary/UploadTable.tsx';
import { ByModelTable } from '../runs/summary/ByModelTable.tsx';
import { ToolCallsCard } from '../runs/summary/ToolCallsCard.tsx';
import { ByTurnTable } from '../runs/summary/ByTurnTable.tsx';
import { ReportCompare } from './ReportCompare.tsx';
import { deriveReportRun, detailOf, reportLabels } from './report-view.ts';

export function ReportApp({ data }: { data: ReportData }) {
  const { letters, head } = useMemo(() => reportLabels(data), [data]);
  return (
    <main className="report" data-testid="report">
      <header className="report-head">
        <h1>Tokenscope report</h1>
        <span className="muted">
          <span data-testid="report-head-runs">{head}</span> · made {fmtDateTime(data.generatedAtWall)} by
          Tokenscope {data.tokenscopeVersion} · a self-contained file: it loads nothing from the network
        </span>
      </header>
      {data.comparison && (
        <ErrorBoundary name="Comparison">
          <ReportCompare c={data.comparison} runs={data.runs} />
        </ErrorBoundary>
      )}
      {data.runs.map((r, i) => (
        <ErrorBoundary key={`${r.entry.key}-${i}`} name={`Run ${r.entry.name ?? r.entry.key}`}>
          <ReportRunView r={r} letter={letters[i] ?? null} />
        </ErrorBoundary>
      ))}
    </main>
  );
}

function ReportRunView({ r, letter }: { r: ReportRun; letter: string | null }) {
  const derived = useMemo(() => deriveReportRun(r), [r]);
  const d = useMemo(() => detailOf(r), [r]);
  // One run's CDFs: named as its section is (its letter, or "this run"), not as a comparison column.
  const cdfs = useMemo(
    () => r.cdfs.map((c) => ({ ...c, series: c.series.map((x) => ({ ...x, name: letter ?? 'this run' })) })),
    [r, letter],
  );
  const e = r.entry;
  const s = r.summary;
  const lanes = r.lanes;
  return (
    <div className="run-dash report-run" data-testid="report-run" data-run-key={e.key}>
      <section className="card run-head">
        <div className="row gap wrap">
          <h2 className="run-title" data-testid="report-run-name">
            {letter && (
              <span className="report-letter" data-testid="report-run-letter">
                {letter}
              </span>
            )}
            {e.name || 'Load run'}
          </h2>
          <RunBadges e={e} />
          <span className="muted">{fmtDateTime(e.startedAtWall)}</span>
        </div>
        <p className="muted run-defs">
          Definitions: <b>{DEFINITIONS[s.definitions ?? 'tokenscope'].name}</b>
          {e.imported ? ' (as its tool measured it)' : ''}
        </p>
        <RunFileNotes d={d} />
      </section>
      <SummaryNumbers s={s} />
      <StatsTable s={s} />
      <ToolCallsCard s={s} />
      <ByTurnTable s={s} />
      <PrefixCacheTable s={s} />
      <UploadTable s={s} />
      <ByModelTable s={s} />
      <ServerSideCard s={s} clientInFlight={derived.concurrency} xMax={derived.xMax} />
      <RunTimeline derived={derived} imported={e.imported} streams={streamsTokens(s)} />
      {lanes && lanes.ticksKept < lanes.events && (
        <p className="muted caption" data-testid="report-ticks-note">
          Swimlane: {lanes.ticksKept.toLocaleString('en-US')} of {lanes.events.toLocaleString('en-US')} events
          drawn as ticks (evenly thinned, each lane&apos;s first and last kept) to keep this file small; every
          number and chart above and below is from all of them.
        </p>
      )}
      <CompareCdfs cdfs={cdfs} />
      <RunHistograms s={s} hist={derived.hist} histLog={derived.histLog} />
      <RunText s={s} />
    </div>
  );
}
