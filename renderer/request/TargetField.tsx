import type { TargetView } from '../../shared/api.ts';
import { useAppStore } from '../core/app-store.ts';
import { switchTarget } from './composer-store.ts';

export function TargetField({ targets, target }: { targets: TargetView[]; target: TargetView | null }) {
  return (
    <div className="field">
      <label htmlFor="target-select">Target</label>
      <div className="row gap">
        <select
          id="target-select"
          data-testid="target-select"
          value={target?.id ?? ''}
          onChange={(e) => {
            const t = targets.find((x) => x.id === e.target.value);
            if (t) switchTarget(t);
          }}
        >
          {targets.length === 0 && <option value="">loading…</option>}
          {targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
              {t.builtin ? ' (built-in)' : ''}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn icon"
          title="Edit target"
          aria-label="Edit target"
          disabled={!target || target.builtin}
          onClick={() => useAppStore.setState({ editing: target?.id ?? null })}
        >
          ✎
        </button>
        <button
          type="button"
          className="btn icon"
          title="Add a target"
          aria-label="Add target"
          data-testid="target-add"
          onClick={() => useAppStore.setState({ editing: 'new' })}
        >
          +
        </button>
      </div>
      {target && (
        <p className="field-hint mono" title={target.baseUrl}>
          {target.baseUrl}
        </p>
      )}
    </div>
  );
}
