/**
 * The Runs tab's sidebar with its mode switch: Run (the workload form and the runs history, as
 * before) or Sweep — the plan (auto, rates, concurrencies or an SLO search), the same workload form
 * for target and workload, Start/Cancel, and the sweep files of the runs folder to open or overlay.
 */
import { useEffect, useMemo, useRef } from 'react';
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { Field } from '../core/form/Field.tsx';
import { SegmentedSwitch } from '../core/form/SegmentedSwitch.tsx';
import { RunsSidebar } from '../runs/history/RunsSidebar.tsx';
import { useFormTarget, WorkloadForm } from '../runs/form/WorkloadForm.tsx';
import { isNonStreamingDialect } from '../../shared/dialects.ts';
import { loadFieldsOf, PLAN_LABELS } from './plan-fields.ts';
import { cancelSweep, openSweep, openSweepText, refreshSweeps, startSweep } from './sweep-actions.ts';
import { setPlan, useSweepStore, type PlanKind } from './sweep-store.ts';

const KINDS: { id: PlanKind; label: string; hint: string }[] = [
  {
    id: 'auto',
    label: 'auto',
    hint: 'a concurrency-1 baseline, a rate-inf ceiling, then rates evenly between',
  },
  {
    id: 'rate',
    label: 'rates',
    hint: 'open loop at each rate (req/s, or inf); the form’s concurrency caps them',
  },
  { id: 'concurrency', label: 'concurrencies', hint: 'closed loop at each concurrency' },
  { id: 'slo', label: 'SLO search', hint: 'the highest load meeting every term' },
];

function ModeSwitch() {
  const mode = useSweepStore((s) => s.mode);
  return (
    <SegmentedSwitch
      label="Runs mode"
      className="mode-switch"
      value={mode}
      onChange={(m) => useSweepStore.setState({ mode: m })}
      segments={(['run', 'sweep'] as const).map((m) => ({
        value: m,
        label: m === 'run' ? 'Run' : 'Sweep',
        testId: `mode-${m}`,
      }))}
    />
  );
}

/** The SLO terms a target takes: E2E and the error rate only when it answers whole (embeddings, rerank). */
function sloHelp(streams: boolean): { hint: string; placeholder: string } {
  return streams
    ? {
        hint: '{mean,p50,p90,p99}_{ttft,tpot,itl,e2el}_ms, error_rate; comma-separated, each with <= or <',
        placeholder: 'p99_ttft_ms<=500,p99_tpot_ms<=50',
      }
    : {
        hint: '{mean,p50,p90,p99}_e2el_ms, error_rate (answered whole: no TTFT, ITL or TPOT); comma-separated, each with <= or <',
        placeholder: 'p99_e2el_ms<=200,error_rate<=0.01',
      };
}

function PlanFields() {
  const p = useSweepStore((s) => s.plan);
  const kind = KINDS.find((k) => k.id === p.kind)!;
  const target = useFormTarget();
  const slo = sloHelp(!(target && isNonStreamingDialect(target.dialect)));
  return (
    <>
      <Field label="Loads" hint={kind.hint} wrap>
        <select
          aria-label="Sweep loads"
          data-testid="sweep-kind"
          value={p.kind}
          onChange={(e) => setPlan({ kind: e.target.value as PlanKind })}
        >
          {KINDS.map((k) => (
            <option key={k.id} value={k.id}>
              {k.label}
            </option>
          ))}
        </select>
      </Field>
      {p.kind === 'auto' && (
        <Field label={PLAN_LABELS.steps} hint="rates between the baseline and the ceiling (1–50)" wrap>
          <input
            type="number"
            min={1}
            max={50}
            data-testid="sweep-steps"
            value={p.steps}
            onChange={(e) => setPlan({ steps: Math.max(1, Math.min(50, Number(e.target.value) || 1)) })}
          />
        </Field>
      )}
      {p.kind === 'rate' && (
        <Field label={PLAN_LABELS.rate} hint="comma-separated, e.g. 1,2,4,inf" wrap>
          <input
            data-testid="sweep-rates"
            value={p.rates}
            onChange={(e) => setPlan({ rates: e.target.value })}
          />
        </Field>
      )}
      {p.kind === 'concurrency' && (
        <Field label={PLAN_LABELS.concurrency} hint="comma-separated, e.g. 1,2,4,8" wrap>
          <input
            data-testid="sweep-concurrencies"
            value={p.concurrencies}
            onChange={(e) => setPlan({ concurrencies: e.target.value })}
          />
        </Field>
      )}
      {p.kind === 'slo' && (
        <>
          <Field label={PLAN_LABELS.slo} hint={slo.hint} wrap>
            <input
              data-testid="sweep-slo"
              placeholder={slo.placeholder}
              value={p.slo}
              onChange={(e) => setPlan({ slo: e.target.value })}
            />
          </Field>
          <Field label={PLAN_LABELS.search}>
            <select
              value={p.search}
              onChange={(e) => setPlan({ search: e.target.value as 'rate' | 'concurrency' })}
            >
              <option value="rate">rate</option>
              <option value="concurrency">concurrency</option>
            </select>
          </Field>
        </>
      )}
    </>
  );
}

function SweepStart() {
  const issues = useSweepStore((s) => s.issues);
  const starting = useSweepStore((s) => s.starting);
  const going = useSweepStore((s) => !!s.live && !s.live.finished);
  return (
    <>
      <PlanFields />
      {issues.length > 0 && (
        <div className="banner bad run-issues" role="alert" data-testid="sweep-issues">
          <b>The sweep was not started:</b>
          <ul>
            {issues.map((i, n) => (
              <li key={n}>{i}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="actions">
        <button type="submit" className="btn primary" data-testid="sweep-start" disabled={starting || going}>
          {starting ? 'Starting…' : going ? 'A sweep is going on' : 'Start sweep'}
        </button>
        {going && (
          <button type="button" className="btn" onClick={() => void cancelSweep()}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}

function SweepFiles() {
  const list = useSweepStore((s) => s.list);
  const err = useSweepStore((s) => s.listError);
  const opened = useSweepStore((s) => s.opened);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => void refreshSweeps(), []);
  return (
    <section className="card" aria-label="Sweep files">
      <header className="card-head">
        <h3>Sweeps</h3>
        <span className="spacer" />
        <button
          type="button"
          className="btn tiny ghost"
          data-testid="sweep-open-file"
          onClick={() => fileRef.current?.click()}
        >
          Open file…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="sweep-file-input"
          multiple
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            for (const f of files) void f.text().then((t) => openSweepText(f.name, t));
          }}
        />
      </header>
      {err && <p className="field-error">{err}</p>}
      {list.length === 0 ? (
        <p className="muted">No sweep files in the runs folder yet.</p>
      ) : (
        <ul className="sweep-list" data-testid="sweep-list">
          {list.map((s) => {
            const on = opened.some((o) => o.id === s.key);
            return (
              <li key={s.key}>
                <button
                  type="button"
                  className={`btn tiny${on ? ' on' : ' ghost'}`}
                  data-testid="sweep-list-item"
                  data-key={s.key}
                  disabled={s.running}
                  title={on ? 'Drawn: open another to overlay' : 'Open (overlays on the sweeps already open)'}
                  onClick={() => void openSweep(s.key)}
                >
                  {s.name ?? s.key.replace(/\.json$/, '')}
                </button>
                <span className="muted">
                  {' '}
                  {s.plan} · {s.steps} steps{s.running ? ' · running' : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function RunsTabSidebar() {
  const mode = useSweepStore((s) => s.mode);
  const kind = useSweepStore((s) => s.plan.kind);
  const search = useSweepStore((s) => s.plan.search);
  const loads = useMemo(() => loadFieldsOf({ kind, search }), [kind, search]);
  return (
    <>
      <ModeSwitch />
      {mode === 'run' ? (
        <RunsSidebar />
      ) : (
        <>
          <ErrorBoundary name="New sweep">
            <WorkloadForm
              sweep={{ title: 'New sweep', start: <SweepStart />, onSubmit: () => void startSweep(), loads }}
            />
          </ErrorBoundary>
          <ErrorBoundary name="Sweeps">
            <SweepFiles />
          </ErrorBoundary>
        </>
      )}
    </>
  );
}
