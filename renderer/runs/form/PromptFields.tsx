import { setDraft } from '../run-store.ts';
import { type WorkloadDraft } from './workload-draft.ts';
import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';
import { ImageFields } from './ImageFields.tsx';
import { CheckRow } from '../../core/form/CheckRow.tsx';
import { ToolDatasetFields } from './ToolFields.tsx';

/**
 * Prompts and sampling: the source, forcing the length, sampling, extra body, usage. `streams`
 * false (embeddings, rerank targets): what only a token stream uses is left out (PoolingFields.tsx
 * says so): forcing the length, images, output tokens, temperature, max tokens, continuous usage.
 */
export function PromptFields({
  d,
  errors,
  streams = true,
}: {
  d: WorkloadDraft;
  errors: Map<string, string>;
  streams?: boolean;
}) {
  return (
    <>
      <details className="sub" open={d.extraBody.trim() !== '' || undefined}>
        <summary>Prompts and sampling</summary>
        <div className="field-pair">
          <Field label="Prompt source" error={errors.get('source')}>
            <select
              aria-label="Prompt source"
              value={d.source}
              onChange={(e) => setDraft({ source: e.target.value as WorkloadDraft['source'] })}
            >
              <option value="synthetic">synthetic</option>
              <option value="sharegpt">ShareGPT JSON</option>
              <option value="jsonl">JSONL prompts</option>
              <option value="tools">tool-calling prompts</option>
            </select>
          </Field>
          {streams && (
            <Field label="Force output length" error={errors.get('force')}>
              <select
                aria-label="Force output length"
                value={d.force}
                onChange={(e) => setDraft({ force: e.target.value as WorkloadDraft['force'] })}
              >
                <option value="default">default ({d.source === 'synthetic' ? 'ignore_eos' : 'none'})</option>
                <option value="ignore_eos">ignore_eos</option>
                <option value="min_tokens">min_tokens</option>
                <option value="both">both</option>
                <option value="none">none</option>
              </select>
            </Field>
          )}
        </div>
        {d.source === 'synthetic' && <PrefixCacheFields d={d} errors={errors} />}
        {streams && <ImageFields d={d} errors={errors} />}
        {d.source === 'tools' && <ToolDatasetFields d={d} errors={errors} />}
        {(d.source === 'sharegpt' || d.source === 'jsonl') && (
          <div className="field-pair">
            <Field
              label="File path (on the core's machine)"
              error={errors.get('path')}
              hint="absolute, or relative to the runs folder"
            >
              <input
                aria-label="Prompt file path"
                value={d.path}
                onChange={(e) => setDraft({ path: e.target.value })}
                aria-invalid={errors.has('path') || undefined}
              />
            </Field>
            {streams && (
              <Field label="Output tokens" hint="empty: the file's">
                <Num k="fileOutputLen" label="Output tokens (files)" errors={errors} />
              </Field>
            )}
          </div>
        )}
        {streams && <SamplingFields errors={errors} />}
        <Field
          label="Extra body (JSON, merged into every request)"
          error={errors.get('extraBody')}
          hint='e.g. {"top_p": 0.9}; the simulator also takes {"sim_fault": "reset:20@0.1"}'
        >
          <textarea
            className="mono"
            aria-label="Extra body JSON"
            data-testid="run-extra-body"
            rows={2}
            spellCheck={false}
            placeholder='{"top_k": 20}'
            value={d.extraBody}
            aria-invalid={errors.has('extraBody') || undefined}
            onChange={(e) => setDraft({ extraBody: e.target.value })}
          />
        </Field>
        <Field
          label="Connections"
          hint={
            d.connection === 'keep-alive'
              ? 'reused across requests; one the server closed is retried once on a new connection'
              : 'a new connection per request (servers that close after every stream)'
          }
        >
          <select
            aria-label="Connections"
            data-testid="run-connection"
            value={d.connection}
            onChange={(e) => setDraft({ connection: e.target.value === 'close' ? 'close' : 'keep-alive' })}
          >
            <option value="keep-alive">keep-alive (pooled)</option>
            <option value="close">close after each request</option>
          </select>
        </Field>
        <RequestChecks d={d} streams={streams} />
        <CheckRow
          checked={d.serverMetrics}
          onChange={(checked) => setDraft({ serverMetrics: checked })}
          title="Scrape the target's /metrics (or its Prometheus) once a second during the run and sum it up in the summary: the server's TTFT, queue time, tokens, peaks"
          testId="run-server-metrics"
        >
          watch the server’s metrics during the run
        </CheckRow>
      </details>
    </>
  );
}

/**
 * Synthetic prompts against a prefix cache (docs/load.md "Prefix caching"): shared prefix groups
 * with the hit ratio they should give, or a unique prefix per request; a reset before the run.
 */
function PrefixCacheFields({ d, errors }: { d: WorkloadDraft; errors: Map<string, string> }) {
  const groups = Number(d.prefixGroups);
  const plen = Number(d.prefixLen);
  const perHit = Math.floor(plen / 16) * 16;
  const share =
    perHit > 0 && Number.isFinite(groups) ? `${Math.round((perHit / (plen + meanIn(d))) * 100)} %` : '—';
  return (
    <>
      <div className="field-stack">
        <Field
          label="Prefix cache"
          error={errors.get('prefixMode')}
          wrap
          hint={
            d.prefixMode === 'groups'
              ? `each request: one of the shared prefixes, then its own input; a group's later requests should find ≈ ${share} of their prompt cached`
              : d.prefixMode === 'bust'
                ? 'a unique random prefix per request: nothing cached is shared'
                : 'prompts as generated'
          }
        >
          <select
            aria-label="Prefix cache"
            data-testid="run-prefix-mode"
            value={d.prefixMode}
            onChange={(e) => setDraft({ prefixMode: e.target.value as WorkloadDraft['prefixMode'] })}
          >
            <option value="none">no shared prefixes</option>
            <option value="groups">shared prefix groups</option>
            <option value="bust">cache busting</option>
          </select>
        </Field>
        <label
          className="check"
          title="POST /reset_prefix_cache (vLLM with VLLM_SERVER_DEV_MODE=1) or /flush_cache (SGLang) before the run; servers without one are said to have none"
        >
          <input
            type="checkbox"
            data-testid="run-reset-prefix-cache"
            checked={d.resetPrefixCache}
            onChange={(e) => setDraft({ resetPrefixCache: e.target.checked })}
          />{' '}
          reset the server’s prefix cache first
        </label>
      </div>
      {d.prefixMode === 'groups' && (
        <div className="field-pair">
          <Field label="Prefix groups" error={errors.get('prefixGroups')}>
            <Num k="prefixGroups" label="Prefix groups" errors={errors} />
          </Field>
          <Field label="Prefix tokens" error={errors.get('prefixLen')} hint="before each request's input">
            <Num k="prefixLen" label="Prefix tokens" errors={errors} />
          </Field>
        </div>
      )}
    </>
  );
}

/** Temperature and max tokens (streamed dialects only). */
function SamplingFields({ errors }: { errors: Map<string, string> }) {
  return (
    <div className="field-pair">
      <Field label="Temperature" error={errors.get('temperature')}>
        <Num k="temperature" label="Temperature" errors={errors} placeholder="server default" />
      </Field>
      <Field label="Max tokens" error={errors.get('maxTokens')} hint="overrides output lengths">
        <Num k="maxTokens" label="Max tokens" errors={errors} placeholder="—" />
      </Field>
    </div>
  );
}

/** The mean input length the draft asks for (0 when it does not parse). */
function meanIn(d: WorkloadDraft): number {
  const n = (s: string): number => (Number.isFinite(Number(s)) ? Number(s) : 0);
  const l = d.inputLen;
  return l.type === 'fixed' ? n(l.value) : l.type === 'uniform' ? (n(l.min) + n(l.max)) / 2 : n(l.mean);
}

/** Per-request options of the stream: exact token counts, correlation headers. */
function RequestChecks({ d, streams }: { d: WorkloadDraft; streams: boolean }) {
  return (
    <>
      {streams && (
        <CheckRow checked={d.continuousUsage} onChange={(checked) => setDraft({ continuousUsage: checked })}>
          continuous_usage_stats (vLLM: exact tokens per event)
        </CheckRow>
      )}
      <label
        className="check"
        title="A fresh W3C traceparent (sampled) and an x-request-id on every request: a server that traces joins its spans to them"
      >
        <input
          type="checkbox"
          data-testid="trace-headers"
          checked={d.traceHeaders}
          onChange={(e) => setDraft({ traceHeaders: e.target.checked })}
        />{' '}
        trace headers
      </label>
    </>
  );
}
