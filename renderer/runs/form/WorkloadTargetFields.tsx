import { selectTarget } from '../../core/app-store.ts';
import { MAX_REPEATS } from '../../../shared/runs-api.ts';
import { MAX_COMPARED } from '../compare/run-compare.ts';
import { useRunsStore } from '../run-store.ts';
import type { TargetView } from '../../../shared/api.ts';
import { Field } from '../../core/form/Field.tsx';

/** The target, the other targets run after it, and how many repeats. */
export function WorkloadTargetFields({
  targets,
  alsoIds,
  repeats,
  target,
  also,
  others,
  single = false,
}: {
  targets: TargetView[];
  alsoIds: string[];
  repeats: number;
  target: TargetView | null;
  also: TargetView[];
  others: TargetView[];
  /** One target, once (a sweep's steps are its repeats): no other targets, no repeat count. */
  single?: boolean;
}) {
  return (
    <>
      <Field label="Target">
        <select
          aria-label="Target"
          data-testid="run-target"
          value={target?.id ?? ''}
          onChange={(e) => {
            // Another server serves other models: the model picker takes the new target's
            // default (or its first listed model) instead of keeping one it may not have.
            useRunsStore.setState((s) => ({ targetId: e.target.value, draft: { ...s.draft, model: '' } }));
            selectTarget(e.target.value);
          }}
        >
          {targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </Field>
      {!single && others.length > 0 && (
        <details className="sub also-targets" open={also.length > 0 || undefined}>
          <summary>
            Also run on other targets{also.length > 0 ? ` (${also.length})` : ''}, then compare
          </summary>
          <p className="field-hint wrap">
            The same workload (same seed: same prompts and schedule) runs on each ticked target after the
            first, one after another, and the runs open side by side.
          </p>
          <ul className="also-list" data-testid="run-also-targets">
            {others.map((t) => {
              const on = alsoIds.includes(t.id);
              const full = !on && also.length >= MAX_COMPARED - 1;
              return (
                <li key={t.id}>
                  <label
                    className="check"
                    title={full ? `At most ${MAX_COMPARED} runs side by side` : undefined}
                  >
                    <input
                      type="checkbox"
                      checked={on}
                      disabled={full}
                      data-testid="run-also-target"
                      data-target-id={t.id}
                      onChange={(e) =>
                        useRunsStore.setState({
                          alsoTargetIds: e.target.checked
                            ? [...alsoIds, t.id]
                            : alsoIds.filter((x) => x !== t.id),
                        })
                      }
                    />{' '}
                    {t.name} <span className="muted mono">{t.baseUrl}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </details>
      )}
      {!single && (
        <Field
          label="Repeat"
          hint={
            repeats > 1
              ? `each target ${repeats}×, pooled, with the spread`
              : 'more than 1: pooled, with the run-to-run spread'
          }
        >
          <input
            type="number"
            min={1}
            max={MAX_REPEATS}
            step={1}
            data-testid="run-repeats"
            value={repeats}
            onChange={(e) => {
              const n = Math.floor(Number(e.target.value));
              useRunsStore.setState({
                repeats: Number.isFinite(n) ? Math.max(1, Math.min(MAX_REPEATS, n)) : 1,
              });
            }}
          />
        </Field>
      )}
    </>
  );
}
