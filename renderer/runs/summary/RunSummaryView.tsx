/**
 * A finished (or reopened, or imported) run: badges, actions (rename, export, folder, delete:
 * RunActions.tsx), the numbers vLLM prints and ours, throughput/concurrency over time, the
 * whole-run swimlane rebuilt from the run's lines, histograms from exact values, and the
 * vLLM-style text.
 */
import { fmtDateTime } from '../../core/format-date.ts';
import { useMemo, useState } from 'react';
import type { RunDetail } from '../../../shared/runs-api.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { summaryText } from '../../../shared/runs/summary/text.ts';
import { DIST_METRICS } from '../charts/metric-defs.ts';
import { deriveRun, histogramsOf, type DerivedRun } from './run-detail.ts';
import { DEFINITIONS, type DefinitionsId } from '../../../shared/runs/summary/definitions.ts';
import { DefinitionsSelect } from '../form/DefinitionsSelect.tsx';
import { rederiveRun } from '../../../shared/runs/summary/rederive.ts';
import { useRunsStore } from '../run-store.ts';
import { RunActions } from './RunActions.tsx';
import { RunBadges } from './RunBadges.tsx';
import { HistChart } from '../charts/HistChart.tsx';
import { OverTimeCharts } from '../charts/OverTimeCharts.tsx';
import { ServerSideCard } from './ServerSideCard.tsx';
import { ServerPhasesCard } from './ServerPhasesCard.tsx';
import { SwimLegend } from '../live/LiveDashboard.tsx';
import { StatsTable, SummaryNumbers } from './SummaryNumbers.tsx';
import { ByTurnTable } from './ByTurnTable.tsx';
import { ByModelTable } from './ByModelTable.tsx';
import { PrefixCacheTable } from './PrefixCacheTable.tsx';
import { UploadTable } from './UploadTable.tsx';
import { ToolCallsCard } from './ToolCallsCard.tsx';
import { Swimlane } from '../live/Swimlane.tsx';
import { ModelFilter } from './ModelFilter.tsx';
import { useModelFilter } from './model-filter.ts';
import { streamsTokens } from '../../../shared/runs/summary/batch.ts';

export function RunSummaryView() {
  const opened = useRunsStore((s) => s.opened);
  if (!opened) return <p className="empty">Pick a run.</p>;
  if (!opened.detail) {
    return opened.error ? (
      <div className="banner bad" role="alert">
        Cannot open {opened.key}: {opened.error}
      </div>
    ) : (
      <p className="empty">Opening {opened.key}…</p>
    );
  }
  return <RunDetailView detail={opened.detail} />;
}

/** The run derived for its charts, and its numbers under the definitions picked. */
function useRunUnder(d: RunDetail) {
  const derivedOwn = useMemo(() => deriveRun(d), [d]);
  const e = d.entry;
  // Whose per-request rules the numbers follow: a native run is re-derived from its events under
  // the preset picked here; an import shows its tool's (it has no events).
  const stored: DefinitionsId = d.summary.definitions ?? 'tokenscope';
  const canRederive = d.lines !== null && d.header !== null;
  const [picked, setPicked] = useState<{ key: string; defs: DefinitionsId } | null>(null);
  const defs = picked && picked.key === e.key ? picked.defs : stored;
  const rd = useMemo(
    () => (canRederive && defs !== stored ? rederiveRun(d.header!, d.lines!, d.summary, defs) : null),
    [d, defs, stored, canRederive],
  );
  const derived = useMemo(() => {
    if (!rd) return derivedOwn;
    return { ...derivedOwn, outcomes: rd.outcomes, ...histogramsOf(rd.outcomes) };
  }, [rd, derivedOwn]);
  const pick = (defs: DefinitionsId) => setPicked({ key: e.key, defs });
  return { stored, canRederive, defs, pick, rederived: rd !== null, derived, s: rd?.summary ?? d.summary };
}

/** @internal exported for its tests */
export function RunDetailView({ detail: d, width }: { detail: RunDetail; width?: number }) {
  const { stored, canRederive, defs, pick, rederived, derived, s } = useRunUnder(d);
  // Model mixes: the charts below for one model at a time (model-filter.ts).
  const mf = useModelFilter(d, s, derived);
  const e = d.entry;
  const when = new Date(e.startedAtWall);
  return (
    <div className="run-dash" data-testid="run-summary" data-run-key={e.key}>
      <section className="card run-head">
        <div className="row gap wrap">
          <h2 className="run-title" data-testid="run-summary-name">
            {e.name || 'Load run'}
          </h2>
          <RunBadges e={e} />
          <span className="muted">{fmtDateTime(when.getTime())}</span>
          <span className="spacer" />
          <RunActions d={d} />
        </div>
        <RunDefinitions
          stored={stored}
          defs={defs}
          canRederive={canRederive}
          rederived={rederived}
          onPick={pick}
        />
        <RunFileNotes d={d} />
      </section>
      <SummaryNumbers s={s} />
      <StatsTable s={s} />
      <ToolCallsCard s={s} />
      <ByTurnTable s={s} />
      <ByModelTable s={s} />
      <PrefixCacheTable s={s} />
      <UploadTable s={s} />
      <ServerPhasesCard d={d} s={s} width={width} />
      <ServerSideCard s={s} clientInFlight={derived.concurrency} xMax={derived.xMax} width={width} />
      <ModelFilter
        s={s}
        models={mf.models}
        value={mf.model}
        onChange={mf.pick}
        shownRequests={mf.shown.outcomes.length}
      />
      <RunTimeline derived={mf.shown} imported={e.imported} width={width} streams={streamsTokens(s)} />
      <RunHistograms s={s} hist={mf.shown.hist} histLog={mf.shown.histLog} width={width} />
      <RunText s={s} />
    </div>
  );
}

/** Whose definitions the numbers follow: a picker when the run can be re-derived, else its tool's. */
function RunDefinitions({
  stored,
  defs,
  canRederive,
  rederived,
  onPick,
}: {
  stored: DefinitionsId;
  defs: DefinitionsId;
  canRederive: boolean;
  rederived: boolean;
  onPick: (d: DefinitionsId) => void;
}) {
  return (
    <div className="row gap wrap run-defs" data-testid="run-definitions">
      <label className="muted">
        Definitions{' '}
        {canRederive ? (
          <DefinitionsSelect
            testId="run-definitions-select"
            value={defs}
            onChange={onPick}
            title="Whose per-request rules (first token, gaps, end, success, peak) the numbers follow; re-derived from the run's events"
          />
        ) : (
          <b>{DEFINITIONS[stored].name} (as its tool measured it)</b>
        )}
      </label>
      {rederived && (
        <span className="muted" data-testid="run-definitions-note">
          re-derived from the run&apos;s events under {DEFINITIONS[defs].name}&apos;s rules:{' '}
          {DEFINITIONS[defs].rules[0]}
        </span>
      )}
    </div>
  );
}

/** Where the run was measured, and what reading its file found wrong. */
export function RunFileNotes({ d }: { d: RunDetail }) {
  const e = d.entry;
  return (
    <>
      <p className="muted mono run-target">
        {e.model || 'model not recorded'}
        {e.url && ` · ${e.url}`}
        {e.dialect && ` · ${e.dialect}`}
        {d.header && ` · Tokenscope ${d.header.tokenscopeVersion}`}
      </p>
      {e.damage && (
        <p className="banner bad" data-testid="run-damage">
          This run file is damaged: {e.damage}. The numbers below were recomputed from its request lines.
        </p>
      )}
      {d.problems.length > 0 && (
        <details className="run-problems">
          <summary>
            {d.problems.length} note{d.problems.length === 1 ? '' : 's'} from reading the file
          </summary>
          <ul>
            {d.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** Throughput and concurrency over time and the whole-run swimlane, from the run's request lines. */
export function RunTimeline({
  derived,
  imported,
  width,
  streams = true,
}: {
  derived: Pick<DerivedRun, 'lanes' | 'throughput' | 'concurrency' | 'xMax'>;
  imported: boolean;
  width?: number;
  /** False for embeddings/rerank runs: no output-token chart, a legend without tokens. */
  streams?: boolean;
}) {
  if (!derived.lanes)
    return (
      <p className="muted caption">
        {imported
          ? 'Imported results carry no per-request send times: no timeline or swimlane.'
          : 'No request lines in this run.'}
      </p>
    );
  return (
    <>
      <OverTimeCharts
        throughput={derived.throughput}
        concurrency={derived.concurrency}
        xMax={derived.xMax}
        idPrefix="sum"
        live={false}
        width={width}
        tokens={streams}
      />
      <section className="card" aria-label="Swimlane">
        <header className="card-head">
          <h3>Requests (swimlane)</h3>
          <SwimLegend streams={streams} />
          <span className="spacer" />
          <span className="muted">
            whole run · hover a lane · wheel zooms time, shift+wheel lanes, drag pans, double-click resets
          </span>
        </header>
        <Swimlane store={derived.lanes} live={false} testId="sum-swimlane" />
      </section>
    </>
  );
}

/** A histogram per latency metric from its exact values (none for a metric without any). */
export function RunHistograms({
  s,
  hist,
  histLog,
  width,
}: {
  s: RunSummary;
  hist: DerivedRun['hist'];
  /** Log bins of the same values (absent in older reports): a log x axis to switch to. */
  histLog?: Partial<DerivedRun['histLog']>;
  width?: number;
}) {
  return (
    <div className="run-grid3">
      {DIST_METRICS.map((m) =>
        hist[m.id].length === 0 ? null : (
          <section key={m.id} className="card mchart" aria-label={`${m.name} histogram`}>
            <header className="card-head mchart-head">
              <h3 title={m.definition}>
                {m.name}
                {m.id === 'itl_per_token' &&
                (s.tokens.outputSource.estimated > 0 || s.tokens.outputSource['usage-total'] > 0)
                  ? ' (estimated counts)'
                  : ''}
              </h3>
            </header>
            <HistChart
              width={width}
              data={hist[m.id]}
              logData={histLog?.[m.id]}
              color={m.color}
              countLabel={m.countLabel}
              testId={`sum-hist-${m.id}`}
            />
          </section>
        ),
      )}
    </div>
  );
}

/** The summary as `vllm bench serve` prints it, with a copy button. */
export function RunText({ s }: { s: RunSummary }) {
  const text = useMemo(() => summaryText(s), [s]);
  const [copied, setCopied] = useState(false);
  return (
    <details className="card run-text">
      <summary>As `vllm bench serve` prints it</summary>
      <div className="row gap">
        <span className="spacer" />
        <button
          type="button"
          className="btn small"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre data-testid="sum-text">{text}</pre>
    </details>
  );
}
