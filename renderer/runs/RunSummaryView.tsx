/**
 * A finished (or reopened, or imported) run: badges, actions (rename, export, folder, delete),
 * the numbers vLLM prints and ours, throughput/concurrency over time, the whole-run swimlane
 * rebuilt from the run's lines, histograms from exact values, and the vLLM-style text.
 */
import { fmtDateTime } from '../core/format-date.ts';
import { useMemo, useState } from 'react';
import type { ExportFormat, RunDetail } from '../../shared/runs-api.ts';
import { summaryText } from '../../shared/runs/summary-text.ts';
import { DIST_METRICS } from './metric-defs.ts';
import { deleteRun, exportRun, renameRun, revealRun } from './run-actions.ts';
import { deriveRun } from './run-detail.ts';
import { histogramData, metricValues } from './run-series.ts';
import { DEFINITIONS, type DefinitionsId } from '../../shared/runs/definitions.ts';
import { DefinitionsSelect } from './DefinitionsSelect.tsx';
import { rederiveRun } from '../../shared/runs/rederive.ts';
import { useRunsStore } from './run-store.ts';
import { RunBadges } from './RunBadges.tsx';
import { HistChart } from './RunCharts.tsx';
import { OverTimeCharts } from './OverTimeCharts.tsx';
import { ServerSideCard } from './ServerSideCard.tsx';
import { SwimLegend } from './LiveDashboard.tsx';
import { StatsTable, SummaryNumbers } from './SummaryNumbers.tsx';
import { Swimlane } from './Swimlane.tsx';

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

const EXPORTS: { id: ExportFormat; label: string; native: boolean }[] = [
  { id: 'vllm', label: 'vLLM result JSON', native: true },
  { id: 'vllm-detailed', label: 'vLLM JSON + per-request arrays', native: true },
  { id: 'csv', label: 'CSV (one row per request)', native: true },
  { id: 'raw', label: 'raw run file', native: false },
];

function RunActions({ d }: { d: RunDetail }) {
  const e = d.entry;
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [format, setFormat] = useState<ExportFormat>(e.imported ? 'raw' : 'vllm');
  const formats = EXPORTS.filter((x) => !e.imported || !x.native);
  return (
    <div className="row gap wrap run-actions">
      {renaming === null ? (
        <button
          type="button"
          className="btn small"
          data-testid="run-rename"
          onClick={() => setRenaming(e.name || 'Load run')}
        >
          Rename
        </button>
      ) : (
        <form
          className="row gap"
          onSubmit={(ev) => {
            ev.preventDefault();
            if (renaming.trim()) void renameRun(e.key, renaming.trim()).then((ok) => ok && setRenaming(null));
          }}
        >
          <input
            aria-label="New name"
            data-testid="run-rename-input"
            value={renaming}
            autoFocus
            maxLength={200}
            onChange={(ev) => setRenaming(ev.target.value)}
          />
          <button type="submit" className="btn small primary" disabled={!renaming.trim()}>
            Save
          </button>
          <button type="button" className="btn small ghost" onClick={() => setRenaming(null)}>
            Cancel
          </button>
        </form>
      )}
      <select
        aria-label="Export format"
        data-testid="run-export-format"
        value={format}
        onChange={(ev) => setFormat(ev.target.value as ExportFormat)}
        className="export-select"
      >
        {formats.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn small"
        data-testid="run-export"
        onClick={() => void exportRun(e.key, format)}
      >
        Export
      </button>
      <button
        type="button"
        className="btn small"
        data-testid="run-reveal"
        onClick={() => void revealRun(e.key)}
        title="Show the run file in the file manager (web mode: its path)"
      >
        Show file
      </button>
      {confirmDelete ? (
        <span className="row gap">
          <span className="danger-text">Delete this run for good?</span>
          <button
            type="button"
            className="btn small danger"
            data-testid="run-delete-confirm"
            onClick={() => void deleteRun(e.key)}
          >
            Delete
          </button>
          <button type="button" className="btn small ghost" onClick={() => setConfirmDelete(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn small ghost"
          data-testid="run-delete"
          disabled={e.running}
          onClick={() => setConfirmDelete(true)}
        >
          Delete…
        </button>
      )}
    </div>
  );
}

export function RunDetailView({ detail: d, width }: { detail: RunDetail; width?: number }) {
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
    const hist = { ...derivedOwn.hist };
    for (const m of DIST_METRICS) hist[m.id] = histogramData(metricValues(rd.outcomes, m.id));
    return { ...derivedOwn, outcomes: rd.outcomes, hist };
  }, [rd, derivedOwn]);
  const s = rd?.summary ?? d.summary;
  const text = useMemo(() => summaryText(s), [s]);
  const [copied, setCopied] = useState(false);
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
        <div className="row gap wrap run-defs" data-testid="run-definitions">
          <label className="muted">
            Definitions{' '}
            {canRederive ? (
              <DefinitionsSelect
                testId="run-definitions-select"
                value={defs}
                onChange={(d) => setPicked({ key: e.key, defs: d })}
                title="Whose per-request rules (first token, gaps, end, success, peak) the numbers follow; re-derived from the run's events"
              />
            ) : (
              <b>{DEFINITIONS[stored].name} (as its tool measured it)</b>
            )}
          </label>
          {rd && (
            <span className="muted" data-testid="run-definitions-note">
              re-derived from the run&apos;s events under {DEFINITIONS[defs].name}&apos;s rules:{' '}
              {DEFINITIONS[defs].rules[0]}
            </span>
          )}
        </div>
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
      </section>
      <SummaryNumbers s={s} />
      <StatsTable s={s} />
      <ServerSideCard s={s} clientInFlight={derived.concurrency} xMax={derived.xMax} width={width} />
      {derived.lanes ? (
        <>
          <OverTimeCharts
            throughput={derived.throughput}
            concurrency={derived.concurrency}
            xMax={derived.xMax}
            idPrefix="sum"
            live={false}
            width={width}
          />
          <section className="card" aria-label="Swimlane">
            <header className="card-head">
              <h3>Requests (swimlane)</h3>
              <SwimLegend />
              <span className="spacer" />
              <span className="muted">
                whole run · hover a lane · wheel zooms time, shift+wheel lanes, drag pans, double-click resets
              </span>
            </header>
            <Swimlane store={derived.lanes} live={false} testId="sum-swimlane" />
          </section>
        </>
      ) : (
        <p className="muted caption">
          {e.imported
            ? 'Imported results carry no per-request send times: no timeline or swimlane.'
            : 'No request lines in this run.'}
        </p>
      )}
      <div className="run-grid3">
        {DIST_METRICS.map((m) =>
          derived.hist[m.id].length === 0 ? null : (
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
                data={derived.hist[m.id]}
                color={m.color}
                countLabel={m.countLabel}
                testId={`sum-hist-${m.id}`}
              />
            </section>
          ),
        )}
      </div>
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
    </div>
  );
}
