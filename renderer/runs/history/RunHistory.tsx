/** The runs folder: every run and imported result, newest first; click to reopen; import a vLLM/SGLang result. */
import { fmtDateTime } from '../../core/format-date.ts';
import { useMemo, useRef, useState } from 'react';
import type { RunEntry } from '../../../shared/runs-api.ts';
import { importRunFile, openRun, revealRun, showCompare, showLive, toggleCompare } from '../run-actions.ts';
import { MAX_COMPARED, RUN_COLORS } from '../compare/run-compare.ts';
import { useRunsStore } from '../run-store.ts';
import { RunBadges } from '../summary/RunBadges.tsx';
import { historyRows, type HistoryRow } from './history-groups.ts';

/** The comparison column of each ticked run: consecutive repeats of one workload share one. */
function compareColumns(runs: readonly RunEntry[], compareKeys: readonly string[]): Map<string, number> {
  const columnOf = new Map<string, number>();
  let col = -1;
  let prev: string | null = null;
  for (const k of compareKeys) {
    const g = runs.find((r) => r.key === k)?.repeat?.group ?? null;
    if (!(g !== null && g === prev)) col++;
    prev = g;
    columnOf.set(k, col);
  }
  return columnOf;
}

export function RunHistory() {
  const runs = useRunsStore((s) => s.runs);
  const loaded = useRunsStore((s) => s.listLoaded);
  const error = useRunsStore((s) => s.listError);
  const skipped = useRunsStore((s) => s.skipped);
  const view = useRunsStore((s) => s.view);
  const live = useRunsStore((s) => s.live);
  const compareKeys = useRunsStore((s) => s.compareKeys);
  const selected = view.kind === 'run' ? view.key : view.kind === 'live' ? live?.key : null;
  const columnOf = compareColumns(runs, compareKeys);
  const columns = columnOf.size ? Math.max(...columnOf.values()) + 1 : 0;
  const rows = useMemo(() => historyRows(runs), [runs]);
  return (
    <section className="card run-history" aria-label="Run history">
      <HistoryHead picked={compareKeys.length} columns={columns} />
      {error && <p className="field-error">Cannot list runs: {error}</p>}
      {loaded && runs.length === 0 && !error && (
        <p className="empty">No runs yet. Start one above, or import a vLLM result.</p>
      )}
      {runs.length >= 2 && compareKeys.length < 2 && (
        <p className="field-hint wrap">Tick two to {MAX_COMPARED} runs to compare them side by side.</p>
      )}
      <ul className="history-list" data-testid="run-history">
        {rows.map((row) =>
          row.kind === 'run' ? (
            <HistoryItem
              key={row.run.key}
              r={row.run}
              pick={columnOf.get(row.run.key) ?? -1}
              current={selected === row.run.key}
              liveKey={live?.key}
            />
          ) : (
            <SweepGroup
              key={row.id}
              group={row}
              columnOf={columnOf}
              selected={selected ?? null}
              liveKey={live?.key}
            />
          ),
        )}
      </ul>
      {skipped.length > 0 && (
        <details className="run-problems">
          <summary>{skipped.length} file(s) in the folder are not runs</summary>
          <ul>
            {skipped.map((s) => (
              <li key={s.file}>
                {s.file}: {s.error}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** The list's head: open the comparison (once two are ticked), import a result, show the folder. */
function HistoryHead({ picked, columns }: { picked: number; columns: number }) {
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <header className="card-head">
      <h3>Runs</h3>
      <span className="spacer" />
      {picked >= 2 && (
        <button
          type="button"
          className="btn tiny primary"
          data-testid="run-compare-open"
          onClick={() => void showCompare()}
          title="Show the ticked runs side by side"
        >
          {columns === 1 ? `Open ${picked} repeats` : `Compare ${columns}`}
        </button>
      )}
      <button
        type="button"
        className="btn tiny"
        data-testid="run-import"
        onClick={() => fileRef.current?.click()}
        title="Import a vLLM --save-result JSON or SGLang bench_serving JSONL"
      >
        Import…
      </button>
      <button
        type="button"
        className="btn tiny ghost"
        onClick={() => void revealRun()}
        title="Show the runs folder"
      >
        Folder
      </button>
      <input
        ref={fileRef}
        type="file"
        accept=".json,.jsonl,application/json"
        data-testid="run-import-file"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void importRunFile(f);
        }}
      />
    </header>
  );
}

/**
 * One run of the list: its comparison tick (with its column's letter), and the run itself (click
 * to reopen it, or back to the live view while it goes on).
 */
function HistoryItem({
  r,
  pick,
  current,
  liveKey,
  label,
}: {
  r: RunEntry;
  /** Shown instead of the run's name (a sweep's step: its load, the sweep named above it). */
  label?: string;
  /** Its comparison column, or -1 when not ticked. */
  pick: number;
  current: boolean;
  liveKey: string | null | undefined;
}) {
  const d = new Date(r.startedAtWall);
  return (
    <li className={`history-item run-item ${current ? 'current' : ''}`} data-run-key={r.key}>
      <label
        className="run-pick"
        title={pick >= 0 ? 'In the comparison (click to take out)' : 'Compare this run with others'}
      >
        <input
          type="checkbox"
          checked={pick >= 0}
          disabled={r.running}
          onChange={() => toggleCompare(r.key)}
          data-testid="run-compare-pick"
          aria-label={`Compare ${r.name || 'this run'}`}
        />
        {pick >= 0 && pick < MAX_COMPARED && (
          <i className="sw" style={{ background: RUN_COLORS[pick] }}>
            {'ABCD'[pick]}
          </i>
        )}
      </label>
      <button
        type="button"
        className="hi-main"
        onClick={() => (r.running && liveKey === r.key ? showLive() : void openRun(r.key))}
        title={r.key}
      >
        <span className="row gap">
          <b className="run-name">{label ?? (r.name || 'Load run')}</b>
          <span className="spacer" />
          <span className="hi-time">{fmtDateTime(d.getTime())}</span>
        </span>
        <span className="row gap">
          <span className="hi-model">{r.model || '—'}</span>
          <span className="spacer" />
          <HistoryNumbers r={r} />
        </span>
        <RunBadges e={r} />
      </button>
    </li>
  );
}

/**
 * A sweep's step runs under one collapsible entry: closed unless one of its steps is open, ticked
 * for a comparison or going on.
 */
function SweepGroup({
  group,
  columnOf,
  selected,
  liveKey,
}: {
  group: Extract<HistoryRow, { kind: 'sweep' }>;
  columnOf: Map<string, number>;
  selected: string | null;
  liveKey: string | null | undefined;
}) {
  const busy = group.runs.some((r) => r.key === selected || columnOf.has(r.key) || r.running);
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? busy;
  const ok = group.runs.reduce((n, r) => n + r.completed, 0);
  const failed = group.runs.reduce((n, r) => n + r.failed, 0);
  const first = group.runs[0]!;
  return (
    <li className="history-group" data-testid="run-history-sweep" data-sweep={group.id}>
      <button
        type="button"
        className="hg-head"
        aria-expanded={open}
        data-testid="run-history-sweep-toggle"
        onClick={() => setToggled(!open)}
        title={open ? 'Hide the steps' : 'Show the steps: each is a run to open or compare'}
      >
        <span className="row gap">
          <span className="hg-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <b className="run-name">Sweep · {group.name}</b>
          <span className="spacer" />
          <span className="hi-time">{fmtDateTime(first.startedAtWall)}</span>
        </span>
        <span className="row gap">
          <span className="hi-model">{first.model || '—'}</span>
          <span className="spacer" />
          <span className="hi-nums">
            {group.runs.length} steps · <span className="ok-text">{ok}</span> ok
            {failed > 0 && (
              <>
                {' · '}
                <span className="danger-text">{failed}</span> failed
              </>
            )}
          </span>
        </span>
      </button>
      {open && (
        <ul className="history-list hg-steps">
          {group.runs.map((r) => (
            <HistoryItem
              key={r.key}
              r={r}
              pick={columnOf.get(r.key) ?? -1}
              current={selected === r.key}
              liveKey={liveKey}
              label={r.name?.match(/ · ((?:rate|concurrency) \S+)$/)?.[1]}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** A run's outcome in the list: ok, failed and duration, or that it is going on. */
function HistoryNumbers({ r }: { r: RunEntry }) {
  if (r.running) return <span className="hi-nums">going on…</span>;
  return (
    <span className="hi-nums">
      <span className="ok-text">{r.completed}</span> ok
      {r.failed > 0 && (
        <>
          {' · '}
          <span className="danger-text">{r.failed}</span> failed
        </>
      )}
      {' · '}
      {r.durationS.toFixed(1)} s
    </span>
  );
}
