/** Name/value rows for HTTP headers (composer and target editor). */
import type { HeaderRow } from '../forms/fire-input.ts';

interface Props {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error?: string;
  idPrefix: string;
}

export function HeadersEditor({ rows, onChange, error, idPrefix }: Props) {
  const set = (i: number, patch: Partial<HeaderRow>): void =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="kv">
      {rows.map((r, i) => (
        <div className="kv-row" key={i}>
          <input
            aria-label={`Header ${i + 1} name`}
            placeholder="Header-Name"
            value={r.key}
            onChange={(e) => set(i, { key: e.target.value })}
            spellCheck={false}
          />
          <input
            aria-label={`Header ${i + 1} value`}
            placeholder="value"
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
            spellCheck={false}
          />
          <button
            type="button"
            className="btn icon ghost"
            aria-label={`Remove header ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn small ghost"
        id={`${idPrefix}-add-header`}
        onClick={() => onChange([...rows, { key: '', value: '' }])}
      >
        + header
      </button>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
