/**
 * "New run": the workload as a form. Defaults run against the built-in simulator in one click;
 * the less common fields sit in collapsed sections. The same JSON loads and saves as a workload
 * file for `tokenscope run`. Errors (ours before sending, the core's after) are listed with their
 * paths and mark their fields.
 */
import { useRef, type ReactNode } from 'react';
import { pickTarget, useAppStore } from '../../core/app-store.ts';
import { alsoTargets, loadWorkloadFile, saveWorkloadFile, startRun } from '../run-actions.ts';
import { useRunsStore, type RunsState } from '../run-store.ts';
import type { TargetView } from '../../../shared/api.ts';
import type { WorkloadIssue } from '../../../shared/runs/workload/workload.ts';
import { fieldOfPath } from './workload-draft.ts';
import { WorkloadTargetFields } from './WorkloadTargetFields.tsx';
import { BasicFields } from './BasicFields.tsx';
import { ArrivalFields } from './ArrivalFields.tsx';
import { PromptFields } from './PromptFields.tsx';
import { SloFields } from './SloFields.tsx';
import { ModelMixField } from './ModelMixField.tsx';
import { ToolFields } from './ToolFields.tsx';
import { TraceListenField } from './TraceListenField.tsx';
import type { LoadFieldsUse } from './field-use.ts';
import { PoolingFields } from './PoolingFields.tsx';
import { isNonStreamingDialect } from '../../../shared/dialects.ts';

function useFieldErrors(): Map<string, string> {
  const issues = useRunsStore((s) => s.startIssues);
  const m = new Map<string, string>();
  for (const i of issues) {
    const f = fieldOfPath(i.path);
    if (!m.has(f)) m.set(f, i.message);
  }
  return m;
}

/** What stopped the last start, and the start button with what it will run. */
function StartFields({
  starting,
  issues,
  going,
  repeats,
  sequence,
  target,
  also,
}: {
  starting: boolean;
  issues: WorkloadIssue[];
  going: boolean;
  repeats: number;
  sequence: RunsState['sequence'];
  target: TargetView | null;
  also: TargetView[];
}) {
  return (
    <>
      {issues.length > 0 && (
        <div className="banner bad run-issues" role="alert" data-testid="run-issues">
          <b>The workload was not started:</b>
          <ul>
            {issues.map((i, n) => (
              <li key={n}>
                {i.path && <code>{i.path}</code>} {i.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="actions">
        <button
          type="submit"
          className="btn primary"
          data-testid="run-start"
          disabled={starting || going || !target}
        >
          {starting
            ? 'Starting…'
            : sequence
              ? `Run ${sequence.index + 1} of ${sequence.targets.length} going on`
              : going
                ? 'A run is going on'
                : also.length > 0 || repeats > 1
                  ? `Start ${(also.length + 1) * repeats} runs`
                  : 'Start run'}
        </button>
        <span className="muted" data-testid="run-against">
          {target
            ? `against ${[target, ...also].map((t) => t.name).join(', then ')}${repeats > 1 ? `, ${repeats} times each` : ''}`
            : 'no target'}
        </span>
      </div>
    </>
  );
}

/** The form's target (its own choice, else the app's selected one), re-read when any of them changes. */
export function useFormTarget(): TargetView | null {
  const targets = useAppStore((s) => s.targets);
  const selected = useAppStore((s) => s.selectedTargetId);
  const own = useRunsStore((s) => s.targetId);
  return targets.find((t) => t.id === own) ?? pickTarget(targets, selected);
}

/**
 * `sweep`: the form as the Sweep mode's workload (shell of renderer/sweeps/): its own title, its
 * start fields instead of the run's, Enter starts the sweep.
 */
export function WorkloadForm({
  sweep,
}: {
  sweep?: { title: string; start: ReactNode; onSubmit: () => void; loads?: LoadFieldsUse };
} = {}) {
  const d = useRunsStore((s) => s.draft);
  const starting = useRunsStore((s) => s.starting);
  const issues = useRunsStore((s) => s.startIssues);
  const going = useRunsStore((s) => (!!s.live && !s.live.finished) || s.sequence !== null);
  const targets = useAppStore((s) => s.targets);
  const alsoIds = useRunsStore((s) => s.alsoTargetIds);
  const repeats = useRunsStore((s) => s.repeats);
  const sequence = useRunsStore((s) => s.sequence);
  const target = useFormTarget();
  const also = alsoTargets(target);
  const others = targets.filter((t) => t.id !== target?.id);
  const errors = useFieldErrors();
  const fileRef = useRef<HTMLInputElement>(null);
  // Embeddings/rerank targets: their batch fields; the token stream's fields left out.
  const pooled = target && isNonStreamingDialect(target.dialect) ? target.dialect : null;
  return (
    <section className="card run-form" aria-label={sweep?.title ?? 'New run'}>
      <header className="card-head">
        <h3>{sweep?.title ?? 'New run'}</h3>
        <span className="spacer" />
        <button
          type="button"
          className="btn tiny ghost"
          onClick={() => fileRef.current?.click()}
          title="Load a workload file, JSON or YAML (the file `tokenscope run` takes)"
        >
          Load workload…
        </button>
        <button
          type="button"
          className="btn tiny ghost"
          data-testid="workload-save"
          onClick={saveWorkloadFile}
          title="Save this workload as JSON for `tokenscope run`"
        >
          Save JSON
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".json,.yaml,.yml,application/json"
          hidden
          data-testid="workload-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void loadWorkloadFile(f);
          }}
        />
      </header>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (sweep) sweep.onSubmit();
          else void startRun();
        }}
      >
        <WorkloadTargetFields
          targets={targets}
          alsoIds={alsoIds}
          repeats={repeats}
          target={target}
          also={also}
          others={others}
          single={sweep !== undefined}
        />
        <BasicFields d={d} target={target} errors={errors} loads={sweep?.loads} />
        {pooled && <PoolingFields dialect={pooled} errors={errors} />}
        <ArrivalFields d={d} errors={errors} />
        <PromptFields d={d} errors={errors} streams={!pooled} />
        {!pooled && <ToolFields d={d} errors={errors} />}
        <ModelMixField d={d} errors={errors} />
        <SloFields errors={errors} streams={!pooled} />
        {!sweep && <TraceListenField d={d} errors={errors} />}
        {sweep ? (
          sweep.start
        ) : (
          <StartFields
            starting={starting}
            issues={issues}
            going={going}
            repeats={repeats}
            sequence={sequence}
            target={target}
            also={also}
          />
        )}
      </form>
    </section>
  );
}
