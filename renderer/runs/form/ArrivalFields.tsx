import { setDraft } from '../run-store.ts';
import { type WorkloadDraft } from './workload-draft.ts';
import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';
import { CheckRow } from '../../core/form/CheckRow.tsx';

/** Arrival process, burstiness, ramp-up, warm-up, seed and the test request. */
export function ArrivalFields({ d, errors }: { d: WorkloadDraft; errors: Map<string, string> }) {
  return (
    <>
      <details className="sub">
        <summary>Arrivals, warm-up, seed, test request</summary>
        <div className="field-pair">
          <Field label="Arrival process" error={errors.get('arrival')}>
            <select
              aria-label="Arrival process"
              value={d.arrival}
              onChange={(e) => setDraft({ arrival: e.target.value as WorkloadDraft['arrival'] })}
            >
              <option value="auto">auto (Poisson, gamma if burstiness ≠ 1)</option>
              <option value="constant">constant</option>
              <option value="poisson">Poisson</option>
              <option value="gamma">gamma</option>
            </select>
          </Field>
          <Field label="Burstiness" error={errors.get('burstiness')} hint="gamma shape; < 1 burstier">
            <Num k="burstiness" label="Burstiness" errors={errors} />
          </Field>
          <Field label="Ramp-up (s)" error={errors.get('rampUpS')} hint="linear from the start rate">
            <Num k="rampUpS" label="Ramp-up seconds" errors={errors} placeholder="none" />
          </Field>
          <Field label="Ramp start rate" error={errors.get('rampUpS')}>
            <Num k="rampStartRate" label="Ramp start rate" errors={errors} />
          </Field>
          <Field label="Warm-up requests" error={errors.get('warmup')} hint="not counted">
            <Num k="warmup" label="Warm-up requests" errors={errors} />
          </Field>
          <Field label="Seed" error={errors.get('seed')} hint="same seed, same run">
            <Num k="seed" label="Seed" errors={errors} />
          </Field>
        </div>
        <CheckRow
          checked={d.testRequest}
          onChange={(checked) => setDraft({ testRequest: checked })}
          title="Like vLLM's initial test: one request before the clock starts. A wrong model, key, URL or dialect then stops the run with the server's answer, instead of a run where every request failed. A failure that may pass (a 5xx, a dropped stream) is tried up to 3 times. Not counted in the results."
          testId="run-test-request"
        >
          send one test request first; stop if it fails
        </CheckRow>
      </details>
    </>
  );
}
