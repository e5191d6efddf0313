/**
 * The run form's batch fields for a target whose dialect answers whole (embeddings, rerank: workload
 * `pooling`, docs/load.md "Embeddings and rerank"): inputs per request, or documents per query, their
 * length and top N. Shown only for such a target, with what the form leaves out for it (the fields
 * of a token stream: output length, sampling, images, TTFT/TPOT SLOs).
 */
import type { DialectId } from '../../../shared/dialects.ts';
import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';
import { setDraft, useRunsStore } from '../run-store.ts';

/** What a non-streaming target does not use, said once instead of a column of disabled inputs. */
const NOT_STREAMED_NOTE =
  'Answered whole, not streamed: output length, sampling, max tokens, images and the TTFT/TPOT SLOs do not apply and are not shown.';

export function PoolingFields({ dialect, errors }: { dialect: DialectId; errors: Map<string, string> }) {
  return (
    <details className="sub" open data-testid="run-pooling">
      <summary>{dialect === 'rerank' ? 'Rerank batches' : 'Embeddings batches'}</summary>
      {dialect === 'rerank' ? (
        <>
          <div className="field-pair">
            <Field
              label="Documents per query"
              error={errors.get('poolDocuments')}
              hint="seeded texts scored against each prompt (the query); at most 4,096"
              wrap
            >
              <Num
                k="poolDocuments"
                label="Documents per query"
                errors={errors}
                testId="run-pool-documents"
              />
            </Field>
            <Field label="Tokens per document" error={errors.get('poolDocumentLen')} hint="at most 65,536">
              <Num
                k="poolDocumentLen"
                label="Tokens per document"
                errors={errors}
                testId="run-pool-document-len"
              />
            </Field>
          </div>
          <Field
            label="Top N"
            error={errors.get('poolTopN')}
            hint="the server returns the best N; empty: all"
          >
            <Num k="poolTopN" label="Top N" errors={errors} placeholder="all" testId="run-pool-top-n" />
          </Field>
        </>
      ) : (
        <Field
          label="Inputs per request"
          error={errors.get('poolBatchSize')}
          hint="each request embeds this many prompts of the source, each of its input length; at most 4,096"
          wrap
        >
          <Num k="poolBatchSize" label="Inputs per request" errors={errors} testId="run-pool-batch-size" />
        </Field>
      )}
      <p className="caption muted" data-testid="run-pool-note">
        {NOT_STREAMED_NOTE}
      </p>
    </details>
  );
}

/**
 * Token SLOs typed before the target changed to one that answers whole: no request has a first
 * token, so each would miss them and goodput would read 0. Said, with a button that clears them.
 */
export function TokenSloNote() {
  const ttft = useRunsStore((s) => s.draft.sloTtftMs.trim());
  const tpot = useRunsStore((s) => s.draft.sloTpotMs.trim());
  if (!ttft && !tpot) return null;
  const set = [ttft && `TTFT ≤ ${ttft} ms`, tpot && `TPOT ≤ ${tpot} ms`].filter(Boolean).join(', ');
  return (
    <p className="field-error" role="alert" data-testid="slo-token-note">
      {set} set: this target answers whole, with no first token, so every request would miss it.{' '}
      <button
        type="button"
        className="btn tiny"
        data-testid="slo-token-clear"
        onClick={() => setDraft({ sloTtftMs: '', sloTpotMs: '' })}
      >
        Clear
      </button>
    </p>
  );
}
