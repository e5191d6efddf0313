import { type TargetForm } from './target-input.ts';

/** The explicit opt-out of TLS verification. */
export function TlsField({ form, set }: { form: TargetForm; set: (patch: Partial<TargetForm>) => void }) {
  return (
    <>
      <label className="check" title="Explicit opt-out: accept any certificate for this target">
        <input
          type="checkbox"
          checked={form.insecureTls}
          onChange={(e) => set({ insecureTls: e.target.checked })}
        />{' '}
        skip TLS verification (insecure)
      </label>
    </>
  );
}
