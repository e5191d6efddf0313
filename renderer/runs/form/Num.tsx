import { setDraft, useRunsStore } from '../run-store.ts';
import { type WorkloadDraft } from './workload-draft.ts';

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
