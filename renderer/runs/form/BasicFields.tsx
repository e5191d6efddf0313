import { setDraft } from '../run-store.ts';
import type { TargetView } from '../../../shared/api.ts';
import { isInfRate, type WorkloadDraft } from './workload-draft.ts';
import { ModelPicker } from '../../targets/ModelPicker.tsx';
import { Field } from '../../core/form/Field.tsx';
import { LenEditor } from './LenEditor.tsx';
import { NotApplied } from './NotApplied.tsx';
import { Num } from './Num.tsx';
import { type LoadFieldsUse } from './field-use.ts';
import { isNonStreamingDialect } from '../../../shared/dialects.ts';

/** Model, how many requests (or how long), concurrency, rate, name, lengths. */
export function BasicFields({
  d,
  target,
  errors,
  loads,
}: {
  d: WorkloadDraft;
  target: TargetView | null;
  errors: Map<string, string>;
  /** In a sweep: whether the rate and the concurrency cap apply, and what happens to them. */
  loads?: LoadFieldsUse;
}) {
  return (
    <>
      <Field label="Model">
        <ModelPicker
          target={target}
          value={d.model}
          onChange={(m) => setDraft({ model: m })}
          error={errors.get('model')}
        />
      </Field>
      <div className="field-pair">
        <Field label="Stop after" error={errors.get('requests') ?? errors.get('durationS')}>
          <div className="len-editor">
            <select
              aria-label="Stop after"
              value={d.stopBy}
              onChange={(e) => setDraft({ stopBy: e.target.value as WorkloadDraft['stopBy'] })}
            >
              <option value="requests">requests</option>
              <option value="duration">seconds</option>
              <option value="both">either</option>
            </select>
            {d.stopBy !== 'duration' && (
              <Num
                k="requests"
                label="Requests"
                errors={errors}
                testId="run-requests"
                placeholder="requests"
              />
            )}
            {d.stopBy !== 'requests' && (
              <Num
                k="durationS"
                label="Duration (s)"
                errors={errors}
                testId="run-duration"
                placeholder="seconds"
              />
            )}
          </div>
        </Field>
        {loads && !loads.maxConcurrency.applies ? (
          <NotApplied label="Max concurrency" use={loads.maxConcurrency} testId="run-concurrency" />
        ) : (
          <Field
            label="Max concurrency"
            error={errors.get('maxConcurrency')}
            hint={loads?.maxConcurrency.note ?? 'empty: no limit'}
            wrap={loads !== undefined}
          >
            <Num
              k="maxConcurrency"
              label="Max concurrency"
              errors={errors}
              testId="run-concurrency"
              placeholder="no limit"
            />
          </Field>
        )}
      </div>
      <div className="field-pair">
        {loads && !loads.rate.applies ? (
          <NotApplied label="Rate (req/s)" use={loads.rate} testId="run-rate" />
        ) : (
          <Field
            label="Rate (req/s)"
            error={errors.get('rate')}
            hint={isInfRate(d.rate) ? '∞: all at once (vLLM default)' : undefined}
          >
            <Num k="rate" label="Rate" errors={errors} testId="run-rate" placeholder="inf" />
          </Field>
        )}
        <Field label="Name" error={errors.get('name')}>
          <input
            aria-label="Name"
            data-testid="run-name"
            value={d.name}
            placeholder="optional"
            maxLength={200}
            onChange={(e) => setDraft({ name: e.target.value })}
          />
        </Field>
      </div>
      {d.source === 'synthetic' && (
        <div className="field-pair">
          <LenEditor which="inputLen" error={errors.get('inputLen')} />
          {/* Embeddings and rerank generate nothing: no output length. */}
          {!(target && isNonStreamingDialect(target.dialect)) && (
            <LenEditor which="outputLen" error={errors.get('outputLen')} />
          )}
        </div>
      )}
    </>
  );
}
