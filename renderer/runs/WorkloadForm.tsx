/**
 * "New run": the workload as a form. Defaults run against the built-in simulator in one click;
 * the less common fields sit in collapsed sections. The same JSON loads and saves as a workload
 * file for `tokenscope run`. Errors (ours before sending, the core's after) are listed with their
 * paths and mark their fields.
 */
import { useRef, type ReactNode } from 'react';
import { selectTarget, useAppStore } from '../core/app-store.ts';
import {
  alsoTargets,
  formTarget,
  loadWorkloadFile,
  saveWorkloadFile,
  startRun,
  MAX_REPEATS,
} from './run-actions.ts';
import { MAX_COMPARED } from './run-compare.ts';
import { setDraft, useRunsStore } from './run-store.ts';
import { fieldOfPath, isInfRate, type LenDraft, type WorkloadDraft } from './workload-draft.ts';
import { ModelPicker } from '../targets/ModelPicker.tsx';

function useFieldErrors(): Map<string, string> {
  const issues = useRunsStore((s) => s.startIssues);
  const m = new Map<string, string>();
  for (const i of issues) {
    const f = fieldOfPath(i.path);
    if (!m.has(f)) m.set(f, i.message);
  }
  return m;
}

function Field({
  label,
  error,
  hint,
  children,
  title,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
  title?: string;
}) {
  return (
    <div className="field" title={title}>
      <label>{label}</label>
      {children}
      {error ? <p className="field-error">{error}</p> : hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}

type StrKey = {
  [K in keyof WorkloadDraft]: WorkloadDraft[K] extends string ? K : never;
}[keyof WorkloadDraft];

function Num({
  k,
  errors,
  placeholder,
  testId,
  label,
}: {
  k: StrKey;
  errors: Map<string, string>;
  placeholder?: string;
  testId?: string;
  label: string;
}) {
  const v = useRunsStore((s) => s.draft[k]);
  return (
    <input
      aria-label={label}
      inputMode="decimal"
      value={v}
      placeholder={placeholder}
      data-testid={testId}
      aria-invalid={errors.has(k) || undefined}
      onChange={(e) => setDraft({ [k]: e.target.value } as Partial<WorkloadDraft>)}
    />
  );
}

function LenEditor({ which, error }: { which: 'inputLen' | 'outputLen'; error?: string }) {
  const d = useRunsStore((s) => s.draft[which]);
  const set = (patch: Partial<LenDraft>): void =>
    setDraft({ [which]: { ...d, ...patch } } as Partial<WorkloadDraft>);
  const label = which === 'inputLen' ? 'Input tokens' : 'Output tokens';
  const inp = (k: keyof LenDraft, ph: string) => (
    <input
      aria-label={`${label} ${k}`}
      inputMode="numeric"
      placeholder={ph}
      value={d[k]}
      aria-invalid={!!error || undefined}
      data-testid={`${which}-${k}`}
      onChange={(e) => set({ [k]: e.target.value })}
    />
  );
  return (
    <Field label={label} error={error}>
      <div className="len-editor">
        <select
          aria-label={`${label} distribution`}
          value={d.type}
          onChange={(e) => set({ type: e.target.value as LenDraft['type'] })}
        >
          <option value="fixed">fixed</option>
          <option value="uniform">uniform</option>
          <option value="normal">normal</option>
        </select>
        {d.type === 'fixed' && inp('value', '128')}
        {d.type === 'uniform' && (
          <>
            {inp('min', 'min')}
            {inp('max', 'max')}
          </>
        )}
        {d.type === 'normal' && (
          <>
            {inp('mean', 'mean')}
            {inp('std', 'std')}
          </>
        )}
      </div>
    </Field>
  );
}

export function WorkloadForm() {
  const d = useRunsStore((s) => s.draft);
  const starting = useRunsStore((s) => s.starting);
  const issues = useRunsStore((s) => s.startIssues);
  const going = useRunsStore((s) => (!!s.live && !s.live.finished) || s.sequence !== null);
  const targets = useAppStore((s) => s.targets);
  useAppStore((s) => s.selectedTargetId);
  useRunsStore((s) => s.targetId);
  const alsoIds = useRunsStore((s) => s.alsoTargetIds);
  const repeats = useRunsStore((s) => s.repeats);
  const sequence = useRunsStore((s) => s.sequence);
  const target = formTarget();
  const also = alsoTargets(target);
  const others = targets.filter((t) => t.id !== target?.id);
  const errors = useFieldErrors();
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <section className="card run-form" aria-label="New run">
      <header className="card-head">
        <h3>New run</h3>
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
          void startRun();
        }}
      >
        <Field label="Target">
          <select
            aria-label="Target"
            data-testid="run-target"
            value={target?.id ?? ''}
            onChange={(e) => {
              // Another server serves other models: the model picker takes the new target's
              // default (or its first listed model) instead of keeping one it may not have.
              useRunsStore.setState((s) => ({ targetId: e.target.value, draft: { ...s.draft, model: '' } }));
              selectTarget(e.target.value);
            }}
          >
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        {others.length > 0 && (
          <details className="sub also-targets" open={also.length > 0 || undefined}>
            <summary>
              Also run on other targets{also.length > 0 ? ` (${also.length})` : ''}, then compare
            </summary>
            <p className="field-hint wrap">
              The same workload (same seed: same prompts and schedule) runs on each ticked target after the
              first, one after another, and the runs open side by side.
            </p>
            <ul className="also-list" data-testid="run-also-targets">
              {others.map((t) => {
                const on = alsoIds.includes(t.id);
                const full = !on && also.length >= MAX_COMPARED - 1;
                return (
                  <li key={t.id}>
                    <label
                      className="check"
                      title={full ? `At most ${MAX_COMPARED} runs side by side` : undefined}
                    >
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={full}
                        data-testid="run-also-target"
                        data-target-id={t.id}
                        onChange={(e) =>
                          useRunsStore.setState({
                            alsoTargetIds: e.target.checked
                              ? [...alsoIds, t.id]
                              : alsoIds.filter((x) => x !== t.id),
                          })
                        }
                      />{' '}
                      {t.name} <span className="muted mono">{t.baseUrl}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </details>
        )}
        <Field
          label="Repeat"
          hint={
            repeats > 1
              ? `each target ${repeats}×, pooled, with the spread`
              : 'more than 1: pooled, with the run-to-run spread'
          }
        >
          <input
            type="number"
            min={1}
            max={MAX_REPEATS}
            step={1}
            data-testid="run-repeats"
            value={repeats}
            onChange={(e) => {
              const n = Math.floor(Number(e.target.value));
              useRunsStore.setState({
                repeats: Number.isFinite(n) ? Math.max(1, Math.min(MAX_REPEATS, n)) : 1,
              });
            }}
          />
        </Field>
        <Field label="Model">
          <ModelPicker
            target={target}
            value={d.model}
            onChange={(m) => setDraft({ model: m })}
            error={errors.get('model')}
          />
        </Field>
        <div className="field-pair">
          <Field label="Stop after" error={errors.get('requests') ?? errors.get('durationS')}>
            <div className="len-editor">
              <select
                aria-label="Stop after"
                value={d.stopBy}
                onChange={(e) => setDraft({ stopBy: e.target.value as WorkloadDraft['stopBy'] })}
              >
                <option value="requests">requests</option>
                <option value="duration">seconds</option>
                <option value="both">either</option>
              </select>
              {d.stopBy !== 'duration' && (
                <Num
                  k="requests"
                  label="Requests"
                  errors={errors}
                  testId="run-requests"
                  placeholder="requests"
                />
              )}
              {d.stopBy !== 'requests' && (
                <Num
                  k="durationS"
                  label="Duration (s)"
                  errors={errors}
                  testId="run-duration"
                  placeholder="seconds"
                />
              )}
            </div>
          </Field>
          <Field label="Max concurrency" error={errors.get('maxConcurrency')} hint="empty: no limit">
            <Num
              k="maxConcurrency"
              label="Max concurrency"
              errors={errors}
              testId="run-concurrency"
              placeholder="no limit"
            />
          </Field>
        </div>
        <div className="field-pair">
          <Field
            label="Rate (req/s)"
            error={errors.get('rate')}
            hint={isInfRate(d.rate) ? '∞: all at once (vLLM default)' : undefined}
          >
            <Num k="rate" label="Rate" errors={errors} testId="run-rate" placeholder="inf" />
          </Field>
          <Field label="Name" error={errors.get('name')}>
            <input
              aria-label="Name"
              data-testid="run-name"
              value={d.name}
              placeholder="optional"
              maxLength={200}
              onChange={(e) => setDraft({ name: e.target.value })}
            />
          </Field>
        </div>
        {d.source === 'synthetic' && (
          <div className="field-pair">
            <LenEditor which="inputLen" error={errors.get('inputLen')} />
            <LenEditor which="outputLen" error={errors.get('outputLen')} />
          </div>
        )}
        <details className="sub">
          <summary>Arrivals, warm-up, seed, test request</summary>
          <div className="field-pair">
            <Field label="Arrival process" error={errors.get('arrival')}>
              <select
                aria-label="Arrival process"
                value={d.arrival}
                onChange={(e) => setDraft({ arrival: e.target.value as WorkloadDraft['arrival'] })}
              >
                <option value="auto">auto (Poisson, gamma if burstiness ≠ 1)</option>
                <option value="constant">constant</option>
                <option value="poisson">Poisson</option>
                <option value="gamma">gamma</option>
              </select>
            </Field>
            <Field label="Burstiness" error={errors.get('burstiness')} hint="gamma shape; < 1 burstier">
              <Num k="burstiness" label="Burstiness" errors={errors} />
            </Field>
            <Field label="Ramp-up (s)" error={errors.get('rampUpS')} hint="linear from the start rate">
              <Num k="rampUpS" label="Ramp-up seconds" errors={errors} placeholder="none" />
            </Field>
            <Field label="Ramp start rate" error={errors.get('rampUpS')}>
              <Num k="rampStartRate" label="Ramp start rate" errors={errors} />
            </Field>
            <Field label="Warm-up requests" error={errors.get('warmup')} hint="not counted">
              <Num k="warmup" label="Warm-up requests" errors={errors} />
            </Field>
            <Field label="Seed" error={errors.get('seed')} hint="same seed, same run">
              <Num k="seed" label="Seed" errors={errors} />
            </Field>
          </div>
          <label
            className="check"
            title="Like vLLM's initial test: one request before the clock starts. A wrong model, key, URL or dialect then stops the run with the server's answer, instead of a run where every request failed. A failure that may pass (a 5xx, a dropped stream) is tried up to 3 times. Not counted in the results."
          >
            <input
              type="checkbox"
              checked={d.testRequest}
              onChange={(e) => setDraft({ testRequest: e.target.checked })}
              data-testid="run-test-request"
            />{' '}
            send one test request first; stop if it fails
          </label>
        </details>
        <details className="sub" open={d.extraBody.trim() !== '' || undefined}>
          <summary>Prompts and sampling</summary>
          <div className="field-pair">
            <Field label="Prompt source" error={errors.get('source')}>
              <select
                aria-label="Prompt source"
                value={d.source}
                onChange={(e) => setDraft({ source: e.target.value as WorkloadDraft['source'] })}
              >
                <option value="synthetic">synthetic</option>
                <option value="sharegpt">ShareGPT JSON</option>
                <option value="jsonl">JSONL prompts</option>
              </select>
            </Field>
            <Field label="Force output length" error={errors.get('force')}>
              <select
                aria-label="Force output length"
                value={d.force}
                onChange={(e) => setDraft({ force: e.target.value as WorkloadDraft['force'] })}
              >
                <option value="default">default ({d.source === 'synthetic' ? 'ignore_eos' : 'none'})</option>
                <option value="ignore_eos">ignore_eos</option>
                <option value="min_tokens">min_tokens</option>
                <option value="both">both</option>
                <option value="none">none</option>
              </select>
            </Field>
          </div>
          {d.source !== 'synthetic' && (
            <div className="field-pair">
              <Field
                label="File path (on the core's machine)"
                error={errors.get('path')}
                hint="absolute, or relative to the runs folder"
              >
                <input
                  aria-label="Prompt file path"
                  value={d.path}
                  onChange={(e) => setDraft({ path: e.target.value })}
                  aria-invalid={errors.has('path') || undefined}
                />
              </Field>
              <Field label="Output tokens" hint="empty: the file's">
                <Num k="fileOutputLen" label="Output tokens (files)" errors={errors} />
              </Field>
            </div>
          )}
          <div className="field-pair">
            <Field label="Temperature" error={errors.get('temperature')}>
              <Num k="temperature" label="Temperature" errors={errors} placeholder="server default" />
            </Field>
            <Field label="Max tokens" error={errors.get('maxTokens')} hint="overrides output lengths">
              <Num k="maxTokens" label="Max tokens" errors={errors} placeholder="—" />
            </Field>
          </div>
          <Field
            label="Extra body (JSON, merged into every request)"
            error={errors.get('extraBody')}
            hint='e.g. {"top_p": 0.9}; the simulator also takes {"sim_fault": "reset:20@0.1"}'
          >
            <textarea
              className="mono"
              aria-label="Extra body JSON"
              data-testid="run-extra-body"
              rows={2}
              spellCheck={false}
              placeholder='{"top_k": 20}'
              value={d.extraBody}
              aria-invalid={errors.has('extraBody') || undefined}
              onChange={(e) => setDraft({ extraBody: e.target.value })}
            />
          </Field>
          <Field
            label="Connections"
            hint={
              d.connection === 'keep-alive'
                ? 'reused across requests; one the server closed is retried once on a new connection'
                : 'a new connection per request (servers that close after every stream)'
            }
          >
            <select
              aria-label="Connections"
              data-testid="run-connection"
              value={d.connection}
              onChange={(e) => setDraft({ connection: e.target.value === 'close' ? 'close' : 'keep-alive' })}
            >
              <option value="keep-alive">keep-alive (pooled)</option>
              <option value="close">close after each request</option>
            </select>
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={d.continuousUsage}
              onChange={(e) => setDraft({ continuousUsage: e.target.checked })}
            />{' '}
            continuous_usage_stats (vLLM: exact tokens per event)
          </label>
          <label
            className="check"
            title="Scrape the target's /metrics (or its Prometheus) once a second during the run and sum it up in the summary: the server's TTFT, queue time, tokens, peaks"
          >
            <input
              type="checkbox"
              checked={d.serverMetrics}
              onChange={(e) => setDraft({ serverMetrics: e.target.checked })}
              data-testid="run-server-metrics"
            />{' '}
            watch the server’s metrics during the run
          </label>
        </details>
        <details className="sub">
          <summary>Goodput SLOs</summary>
          <div className="params slo">
            <Field label="TTFT ≤ ms" error={errors.get('sloTtftMs')}>
              <Num k="sloTtftMs" label="TTFT SLO (ms)" errors={errors} testId="slo-ttft" />
            </Field>
            <Field label="TPOT ≤ ms" error={errors.get('sloTpotMs')}>
              <Num k="sloTpotMs" label="TPOT SLO (ms)" errors={errors} />
            </Field>
            <Field label="E2E ≤ ms" error={errors.get('sloE2elMs')}>
              <Num k="sloE2elMs" label="E2E SLO (ms)" errors={errors} />
            </Field>
          </div>
        </details>
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
      </form>
    </section>
  );
}
