import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';
import { TokenSloNote } from './PoolingFields.tsx';

/** Goodput SLOs; `streams` false (embeddings, rerank): E2E only, there is no token to time. */
export function SloFields({ errors, streams = true }: { errors: Map<string, string>; streams?: boolean }) {
  return (
    <>
      <details className="sub">
        <summary>Goodput SLOs</summary>
        {!streams && <TokenSloNote />}
        <div className="params slo">
          {streams && (
            <>
              <Field label="TTFT ≤ ms" error={errors.get('sloTtftMs')}>
                <Num k="sloTtftMs" label="TTFT SLO (ms)" errors={errors} testId="slo-ttft" />
              </Field>
              <Field label="TPOT ≤ ms" error={errors.get('sloTpotMs')}>
                <Num k="sloTpotMs" label="TPOT SLO (ms)" errors={errors} />
              </Field>
            </>
          )}
          <Field label="E2E ≤ ms" error={errors.get('sloE2elMs')}>
            <Num k="sloE2elMs" label="E2E SLO (ms)" errors={errors} />
          </Field>
        </div>
      </details>
    </>
  );
}
