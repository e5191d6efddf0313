/** Name/value rows for HTTP headers (composer and target editor). */
import type { HeaderRow } from './header-rows.ts';

interface Props {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error?: string;
  idPrefix: string;
  /** Offer a "secret" toggle per row (target headers, stored like the API key). */
  secrets?: boolean;
}

export function HeadersEditor({ rows, onChange, error, idPrefix, secrets = false }: Props) {
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
            placeholder={r.secret && r.stored ? 'secret stored — type to replace' : 'value'}
            type={r.secret ? 'password' : 'text'}
            autoComplete="off"
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
            spellCheck={false}
          />
          {secrets && (
            <label className="check kv-secret" title="Keep the value like the API key: never shown again">
              <input
                type="checkbox"
                aria-label={`Header ${i + 1} is secret`}
                data-testid="header-secret"
                checked={r.secret === true}
                // A stored secret's value is not known here: it stays secret (remove the row to drop it).
                disabled={r.stored === true}
                onChange={(e) => set(i, { secret: e.target.checked })}
              />{' '}
              secret
            </label>
          )}
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
