import type { ParseResult } from './fire-input.ts';
import { patchForm } from './composer-store.ts';

/** Extra body JSON, merged last; open while it holds something. */
export function ExtraBodyField({ value, parsed }: { value: string; parsed: ParseResult<unknown> }) {
  return (
    <details className="sub" open={value.trim() !== ''}>
      <summary>Extra body (JSON, merged last)</summary>
      <textarea
        className={`mono${parsed.ok ? '' : ' invalid'}`}
        data-testid="extra-body"
        aria-label="Extra body JSON"
        aria-invalid={!parsed.ok}
        rows={4}
        spellCheck={false}
        placeholder='{"top_k": 20, "repetition_penalty": 1.05}'
        value={value}
        onChange={(e) => patchForm({ extraBody: e.target.value })}
      />
      {!parsed.ok && <p className="field-error">{parsed.error}</p>}
    </details>
  );
}
