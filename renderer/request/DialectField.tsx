import type { TargetView } from '../../shared/api.ts';
import { DIALECT_IDS, DIALECT_LABELS, type DialectId } from '../../shared/dialects.ts';
import { patchForm } from './composer-store.ts';

/** The form's dialect override ('' = the target's own, named in the first option). */
export function DialectField({
  value,
  dialect,
  target,
}: {
  value: DialectId | null;
  /** The dialect in effect: the override, else the target's. */
  dialect: DialectId;
  target: TargetView | null;
}) {
  return (
    <div className="field">
      <label htmlFor="dialect-select">Dialect</label>
      <select
        id="dialect-select"
        data-testid="dialect-select"
        value={value ?? ''}
        onChange={(e) => patchForm({ dialect: (e.target.value || null) as DialectId | null })}
        title={DIALECT_LABELS[dialect]}
      >
        <option value="">{target ? `${DIALECT_LABELS[target.dialect]} (the target's)` : '—'}</option>
        {DIALECT_IDS.map((d) => (
          <option key={d} value={d}>
            {DIALECT_LABELS[d]}
          </option>
        ))}
      </select>
    </div>
  );
}
