import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';

/** Goodput SLOs. */
export function SloFields({ errors }: { errors: Map<string, string> }) {
  return (
    <>
      <details className="sub">
        <summary>Goodput SLOs</summary>
        <div className="params slo">
          <Field label="TTFT ≤ ms" error={errors.get('sloTtftMs')}>
            <Num k="sloTtftMs" label="TTFT SLO (ms)" errors={errors} testId="slo-ttft" />
          </Field>
          <Field label="TPOT ≤ ms" error={errors.get('sloTpotMs')}>
            <Num k="sloTpotMs" label="TPOT SLO (ms)" errors={errors} />
          </Field>
          <Field label="E2E ≤ ms" error={errors.get('sloE2elMs')}>
            <Num k="sloE2elMs" label="E2E SLO (ms)" errors={errors} />
          </Field>
        </div>
      </details>
    </>
  );
}
