import { setDraft, useRunsStore } from '../run-store.ts';
import { type LenDraft, type WorkloadDraft } from './workload-draft.ts';
import { Field } from '../../core/form/Field.tsx';

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
