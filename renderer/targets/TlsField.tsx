import { type TargetForm } from './target-input.ts';
import { CheckRow } from '../core/form/CheckRow.tsx';

/** The explicit opt-out of TLS verification. */
export function TlsField({ form, set }: { form: TargetForm; set: (patch: Partial<TargetForm>) => void }) {
  return (
    <>
      <CheckRow
        checked={form.insecureTls}
        onChange={(checked) => set({ insecureTls: checked })}
        title="Explicit opt-out: accept any certificate for this target"
      >
        skip TLS verification (insecure)
      </CheckRow>
    </>
  );
}
