/** Sampling and length parameters and OpenAI stream options of the composer. */
import type { DialectId } from '../../shared/dialects.ts';
import { hasStreamOptions } from '../targets/dialect-ui.ts';
import type { ComposerForm, FieldErrors } from './fire-input.ts';
import { patchForm } from './composer-store.ts';
import { CheckRow } from '../core/form/CheckRow.tsx';

interface Props {
  form: ComposerForm;
  dialect: DialectId;
  errors: FieldErrors;
}

export function ComposerParams({ form, dialect, errors }: Props) {
  const set = patchForm;
  return (
    <>
      <div className="params">
        <NumberField
          id="max-tokens"
          label="max tokens"
          value={form.maxTokens}
          onChange={(maxTokens) => set({ maxTokens })}
          error={errors.maxTokens}
        />
        <NumberField
          id="temperature"
          label="temperature"
          value={form.temperature}
          onChange={(temperature) => set({ temperature })}
          error={errors.temperature}
          step="0.1"
        />
        <NumberField
          id="min-tokens"
          label="min tokens"
          value={form.minTokens}
          onChange={(minTokens) => set({ minTokens })}
          error={errors.minTokens}
          placeholder="—"
        />
        <CheckRow
          checked={form.ignoreEos}
          onChange={(checked) => set({ ignoreEos: checked })}
          title="Keep generating past end-of-sequence (vLLM, SGLang, TGI): fixed-length outputs for benchmarking"
        >
          ignore_eos
        </CheckRow>
        <TraceHeadersCheck checked={form.traceHeaders} />
      </div>

      {hasStreamOptions(dialect) && (
        <div className="row gap wrap stream-opts">
          <label
            className="check"
            title="stream_options.include_usage: the server sends the final token usage"
          >
            <input
              type="checkbox"
              data-testid="include-usage"
              checked={form.includeUsage}
              onChange={(e) => set({ includeUsage: e.target.checked })}
            />{' '}
            include_usage
          </label>
          <label
            className="check"
            title="stream_options.continuous_usage_stats (vLLM): usage in every chunk, so tokens per event are exact"
          >
            <input
              type="checkbox"
              data-testid="continuous-usage"
              checked={form.continuousUsage}
              onChange={(e) => set({ continuousUsage: e.target.checked })}
            />{' '}
            continuous_usage_stats
          </label>
        </div>
      )}
    </>
  );
}

/** Send a traceparent and an x-request-id (every dialect, the pooling ones too). */
export function TraceHeadersCheck({ checked }: { checked: boolean }) {
  return (
    <label
      className="check"
      title="Send a fresh W3C traceparent (sampled) and an x-request-id, so a server that traces joins its span to this request"
    >
      <input
        type="checkbox"
        data-testid="trace-headers"
        checked={checked}
        onChange={(e) => patchForm({ traceHeaders: e.target.checked })}
      />{' '}
      trace headers
    </label>
  );
}

export function NumberField(p: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  step?: string;
  placeholder?: string;
}) {
  return (
    <div className="field num">
      <label htmlFor={p.id}>{p.label}</label>
      <input
        id={p.id}
        data-testid={p.id}
        inputMode="decimal"
        value={p.value}
        placeholder={p.placeholder}
        onChange={(e) => p.onChange(e.target.value)}
        aria-invalid={Boolean(p.error)}
        step={p.step}
      />
      {p.error && <p className="field-error">{p.error}</p>}
    </div>
  );
}
