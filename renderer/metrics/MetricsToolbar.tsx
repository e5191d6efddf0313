/**
 * The metrics panel's toolbar: whose metrics these are, how to read the x axis, the second target
 * to show side by side, and the time window.
 */
import type { TargetView } from '../../shared/api.ts';
import { setPanel } from './panel-store.ts';
import { clockLabel, WINDOWS, type WindowId } from './time-axis.ts';

interface Props {
  target: TargetView;
  /** The target shown side by side, if any. */
  other: TargetView | null;
  /** The targets that can be shown side by side (all but the selected one). */
  others: TargetView[];
  win: WindowId;
  /** Watching began inside the window: when (the axis starts there); null otherwise. */
  watchingSince: number | null;
}

export function MetricsToolbar({ target, other, others, win, watchingSince }: Props) {
  return (
    <div className="metrics-toolbar">
      <h2>
        Server metrics{' '}
        <span className="muted">
          · {target.name}
          {other ? ` and ${other.name}` : ''}
        </span>
      </h2>
      <span className="muted mt-hint">
        x: wall clock
        {watchingSince !== null ? ` (watching since ${clockLabel(watchingSince)})` : ''} · pink: this
        client&apos;s requests
      </span>
      {others.length > 0 && (
        <label className="mt-compare">
          <span className="muted">side by side with</span>{' '}
          <select
            aria-label="Side by side with"
            data-testid="metrics-compare-select"
            value={other?.id ?? ''}
            onChange={(e) => setPanel({ compareTargetId: e.target.value || null })}
          >
            <option value="">— nobody</option>
            {others.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="seg" role="group" aria-label="Time window">
        {WINDOWS.map((w) => (
          <button
            key={w.id}
            type="button"
            className={win === w.id ? 'on' : ''}
            aria-pressed={win === w.id}
            onClick={() => setPanel({ window: w.id })}
          >
            last {w.label}
          </button>
        ))}
      </div>
    </div>
  );
}
