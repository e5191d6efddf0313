/** The run form's building blocks: a labelled field, a number input bound to the draft, a length editor. */
import { type ReactNode } from 'react';
import { setDraft, useRunsStore } from '../run-store.ts';
import { type LenDraft, type WorkloadDraft } from './workload-draft.ts';

export function Field({
  label,
  error,
  hint,
  wrap,
  children,
  title,
}: {
  label: string;
  error?: string;
  hint?: string;
  /** The hint wraps onto more lines instead of being cut off (long hints, syntax notes). */
  wrap?: boolean;
  children: ReactNode;
  title?: string;
}) {
  return (
    <div className="field" title={title}>
      <label>{label}</label>
      {children}
      {error ? (
        <p className="field-error">{error}</p>
      ) : hint ? (
        <p className={wrap ? 'field-hint wrap' : 'field-hint'}>{hint}</p>
      ) : null}
    </div>
  );
}

/**
 * Whether a workload field applies where the form is used (a sweep's steps set the rate, and
 * sometimes the concurrency, themselves), with a short note saying what happens to it.
 */
export interface FieldUse {
  applies: boolean;
  note: string;
}

/** The load fields' use in a sweep (the Sweep mode fills it from its plan). */
export interface LoadFieldsUse {
  rate: FieldUse;
  maxConcurrency: FieldUse;
}

/** A field that does not apply: its value left out of sight, the input disabled, the note why. */
export function NotApplied({ label, use, testId }: { label: string; use: FieldUse; testId?: string }) {
  return (
    <Field label={label} hint={use.note} wrap>
      <input aria-label={label} data-testid={testId} disabled value="" placeholder="set by each step" />
    </Field>
  );
}

type StrKey = {
  [K in keyof WorkloadDraft]: WorkloadDraft[K] extends string ? K : never;
}[keyof WorkloadDraft];

export function Num({
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

export function LenEditor({ which, error }: { which: 'inputLen' | 'outputLen'; error?: string }) {
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
