/**
 * The composer's fields for embeddings and rerank: the batch of inputs (one box each), or a
 * rerank's query, its documents and top_n — what these endpoints take instead of messages, max
 * tokens and sampling (renderer/request/pooling/pooling-input.ts builds the request from them).
 */
import type { DialectId } from '../../../shared/dialects.ts';
import { patchForm } from '../composer-store.ts';
import { NumberField, TraceHeadersCheck } from '../ComposerParams.tsx';
import type { ComposerForm, FieldErrors } from '../fire-input.ts';

interface Props {
  form: ComposerForm;
  dialect: DialectId;
  errors: FieldErrors;
}

export function PoolingFields({ form, dialect, errors }: Props) {
  const rerank = dialect === 'rerank';
  const noun = rerank ? 'document' : 'input';
  const set = (i: number, v: string): void =>
    patchForm({ inputs: form.inputs.map((s, j) => (j === i ? v : s)) });
  return (
    <div className="pooling-fields" data-testid="pooling-fields">
      {rerank && (
        <div className="field">
          <label htmlFor="rerank-query">Query</label>
          <textarea
            id="rerank-query"
            data-testid="prompt"
            rows={2}
            value={form.prompt}
            onChange={(e) => patchForm({ prompt: e.target.value })}
          />
          {errors.prompt && <p className="field-error">{errors.prompt}</p>}
        </div>
      )}
      <div className="field">
        <label>
          {rerank ? 'Documents' : 'Inputs'} ({form.inputs.length}
          {rerank ? ', scored against the query' : ', one vector each'})
        </label>
        <div className="messages" data-testid="pooling-inputs">
          {form.inputs.map((s, i) => (
            <div className="pooling-input" key={i}>
              <span className="muted mono pi-index" title={`${noun} ${i}: its index in the request`}>
                {i}
              </span>
              <textarea
                aria-label={`${rerank ? 'Document' : 'Input'} ${i}`}
                rows={2}
                value={s}
                onChange={(e) => set(i, e.target.value)}
              />
              <button
                type="button"
                className="btn icon ghost"
                aria-label={`Remove ${noun} ${i}`}
                onClick={() => patchForm({ inputs: form.inputs.filter((_, j) => j !== i) })}
                disabled={form.inputs.length === 1}
              >
                ×
              </button>
            </div>
          ))}
          <div className="row gap">
            <button
              type="button"
              className="btn small ghost"
              data-testid="pooling-add"
              onClick={() => patchForm({ inputs: [...form.inputs, ''] })}
            >
              + {noun}
            </button>
          </div>
          {errors.inputs && <p className="field-error">{errors.inputs}</p>}
        </div>
      </div>
      <div className="params">
        {rerank && (
          <NumberField
            id="top-n"
            label="top_n"
            value={form.topN}
            onChange={(topN) => patchForm({ topN })}
            error={errors.topN}
            placeholder="all"
          />
        )}
        <TraceHeadersCheck checked={form.traceHeaders} />
      </div>
    </div>
  );
}
