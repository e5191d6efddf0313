/** The target dialog's sections: identity, authentication, metrics source, TLS, and its buttons. */
import { RoleEndpointsField } from './RoleEndpointsField.tsx';
import { DIALECT_IDS, DIALECT_LABELS, type DialectId } from '../../shared/dialects.ts';
import { movesSecrets, type TargetErrors, type TargetForm } from './target-input.ts';
import { originOf } from '../../shared/origin.ts';
import type { TargetView } from '../../shared/api.ts';
import { HeadersEditor } from './HeadersEditor.tsx';
import { apiKeyHint } from './dialect-ui.ts';

/** Name, base URL (and what becomes of the key when it moves to another server), dialect and default model. */
export function IdentityFields({
  form,
  set,
  errors,
  existing,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
  existing: TargetView | undefined;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="te-name">Name</label>
        <input
          id="te-name"
          data-testid="target-name"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          autoFocus
          placeholder="vLLM on gpu-box"
        />
        {errors.name && <p className="field-error">{errors.name}</p>}
      </div>
      <div className="field">
        <label htmlFor="te-url">Base URL</label>
        <input
          id="te-url"
          data-testid="target-url"
          className="mono"
          value={form.baseUrl}
          onChange={(e) => set({ baseUrl: e.target.value })}
          spellCheck={false}
        />
        <p className="field-hint">The server root (the dialect adds its path), or a full endpoint URL.</p>
        {errors.baseUrl && <p className="field-error">{errors.baseUrl}</p>}
        {existing && movesSecrets(form, existing) && (
          <fieldset className="key-move" data-testid="target-key-move">
            <legend>
              This URL points to another server ({originOf(form.baseUrl)}). Its stored API key
              {existing.secretHeaderNames?.length ? ' and secret headers' : ''} were for{' '}
              {originOf(existing.baseUrl)}:
            </legend>
            <label className="check">
              <input
                type="radio"
                name="te-key-move"
                data-testid="target-key-move-keep"
                checked={form.keepSecretsOnMove === true}
                onChange={() => set({ keepSecretsOnMove: true })}
              />{' '}
              keep them for the new server
            </label>
            <label className="check">
              <input
                type="radio"
                name="te-key-move"
                data-testid="target-key-move-drop"
                checked={form.keepSecretsOnMove === false}
                onChange={() => set({ keepSecretsOnMove: false })}
              />{' '}
              remove them
            </label>
            {errors.keepSecretsOnMove && <p className="field-error">{errors.keepSecretsOnMove}</p>}
          </fieldset>
        )}
      </div>
      <div className="field-pair">
        <div className="field">
          <label htmlFor="te-dialect">Dialect</label>
          <select
            id="te-dialect"
            value={form.dialect}
            onChange={(e) => set({ dialect: e.target.value as DialectId })}
          >
            {DIALECT_IDS.map((d) => (
              <option key={d} value={d}>
                {DIALECT_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="te-model">Default model</label>
          <input
            id="te-model"
            value={form.defaultModel}
            onChange={(e) => set({ defaultModel: e.target.value })}
            placeholder="optional"
            spellCheck={false}
          />
        </div>
      </div>
    </>
  );
}

/** The API key (write-only) and the extra headers, secret or not. */
export function AuthFields({
  form,
  set,
  errors,
  existing,
  secretsPersisted,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
  existing: TargetView | undefined;
  secretsPersisted: boolean;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="te-key">API key</label>
        <input
          id="te-key"
          type="password"
          autoComplete="off"
          data-testid="target-api-key"
          value={form.apiKey}
          onChange={(e) => set({ apiKey: e.target.value, clearKey: false })}
          placeholder={existing?.hasApiKey && !form.clearKey ? 'key stored — type to replace' : 'none'}
        />
        <div className="row gap">
          {existing?.hasApiKey && (
            <>
              <span className="badge ok" data-testid="target-key-stored">
                {form.clearKey ? 'key will be removed' : 'key stored'}
              </span>
              <label className="check">
                <input
                  type="checkbox"
                  checked={form.clearKey}
                  onChange={(e) => set({ clearKey: e.target.checked, apiKey: '' })}
                />{' '}
                remove stored key
              </label>
            </>
          )}
        </div>
        <p className="field-hint">
          {apiKeyHint(form.dialect)} Write-only: it stays in the core
          {secretsPersisted
            ? ', encrypted at rest'
            : ' (in memory only: no OS encryption available here)'}{' '}
          and never reaches run files, exports or logs.
        </p>
      </div>
      <div className="field">
        <label>Headers</label>
        <HeadersEditor
          idPrefix="target"
          rows={form.headers}
          onChange={(headers) => set({ headers })}
          error={errors.headers}
          secrets
        />
        <p className="field-hint">
          Mark a header secret (a token, a session) to keep its value like the API key: never shown again,
          never in Copy as curl. Headers named like one (…Key, …Token, Cookie) are kept secret anyway.
        </p>
      </div>
    </>
  );
}

/** The telemetry exporters beside the server (GPU: dcgm-exporter; host: node_exporter). */
function TelemetryField({
  form,
  set,
  errors,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
}) {
  return (
    <>
      <label htmlFor="te-telemetry">GPU / host telemetry</label>
      <textarea
        id="te-telemetry"
        className="mono"
        rows={2}
        value={form.telemetryUrls}
        onChange={(e) => set({ telemetryUrls: e.target.value })}
        placeholder={
          'http://gpu-box:9400/metrics  (dcgm-exporter)\nhttp://gpu-box:9100/metrics  (node_exporter)'
        }
        spellCheck={false}
        data-testid="target-telemetry-urls"
      />
      {errors.telemetryUrls && <p className="field-error">{errors.telemetryUrls}</p>}
      <p className="field-hint wrap">
        One URL a line, scraped with the server’s metrics: GPU utilization, memory, power and energy per token
        (dcgm-exporter), host CPU and memory (node_exporter).
      </p>
    </>
  );
}

/** Where the server's metrics come from (its /metrics or a Prometheus) and how often. */
export function MetricsFields({
  form,
  set,
  errors,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
}) {
  return (
    <>
      <fieldset className="field metrics-source" data-testid="target-metrics-source">
        <legend>Server metrics from</legend>
        <div className="row gap">
          <label className="check">
            <input
              type="radio"
              name="te-metrics-source"
              checked={form.metricsSource === 'scrape'}
              onChange={() => set({ metricsSource: 'scrape' })}
              data-testid="target-source-scrape"
            />{' '}
            this server’s /metrics
          </label>
          <label className="check">
            <input
              type="radio"
              name="te-metrics-source"
              checked={form.metricsSource === 'prometheus'}
              onChange={() => set({ metricsSource: 'prometheus' })}
              data-testid="target-source-prometheus"
            />{' '}
            a Prometheus server
          </label>
        </div>
        {form.metricsSource === 'scrape' ? (
          <>
            <label htmlFor="te-metrics">Metrics URL</label>
            <input
              id="te-metrics"
              className="mono"
              value={form.metricsUrl}
              onChange={(e) => set({ metricsUrl: e.target.value })}
              placeholder="default: <base>/metrics"
              spellCheck={false}
            />
            {errors.metricsUrl && <p className="field-error">{errors.metricsUrl}</p>}
          </>
        ) : (
          <>
            <label htmlFor="te-prom-url">Prometheus URL</label>
            <input
              id="te-prom-url"
              className="mono"
              value={form.prometheusUrl}
              onChange={(e) => set({ prometheusUrl: e.target.value })}
              placeholder="http://prometheus:9090"
              spellCheck={false}
              data-testid="target-prometheus-url"
            />
            {errors.prometheusUrl && <p className="field-error">{errors.prometheusUrl}</p>}
            <label htmlFor="te-prom-sel">Selector</label>
            <input
              id="te-prom-sel"
              className="mono"
              value={form.prometheusSelector}
              onChange={(e) => set({ prometheusSelector: e.target.value })}
              placeholder='{job="vllm",instance="gpu-1:8000"}'
              spellCheck={false}
              data-testid="target-prometheus-selector"
            />
            {errors.prometheusSelector && <p className="field-error">{errors.prometheusSelector}</p>}
            <p className="field-hint wrap">
              The label matchers of this target’s servers as Prometheus stores them (job, instance). Several
              servers are summed, as sum() would; each snapshot is dated by Prometheus’ own scrape. The API
              key and headers above are not sent to Prometheus.
            </p>
          </>
        )}
        <TelemetryField form={form} set={set} errors={errors} />
        <RoleEndpointsField form={form} set={set} errors={errors} />
        <div className="field-pair metrics-cadence">
          <div className="field">
            <label htmlFor="te-interval">
              {form.metricsSource === 'prometheus' ? 'Query every (s)' : 'Scrape every (s)'}
            </label>
            <input
              id="te-interval"
              className="mono"
              inputMode="decimal"
              value={form.metricsInterval}
              onChange={(e) => set({ metricsInterval: e.target.value })}
              data-testid="target-metrics-interval"
            />
            {errors.metricsInterval && <p className="field-error">{errors.metricsInterval}</p>}
          </div>
          <div className="field">
            <label htmlFor="te-timeout">Timeout (s)</label>
            <input
              id="te-timeout"
              className="mono"
              inputMode="decimal"
              value={form.metricsTimeout}
              onChange={(e) => set({ metricsTimeout: e.target.value })}
              placeholder="auto: the interval, 1–10 s"
              data-testid="target-metrics-timeout"
            />
            {errors.metricsTimeout && <p className="field-error">{errors.metricsTimeout}</p>}
          </div>
        </div>
        <p className="field-hint wrap">
          While the Server metrics tab is open. A failure is retried after 2ⁿ intervals (at most 30 s), and
          shown.
        </p>
      </fieldset>
    </>
  );
}

/** The explicit opt-out of TLS verification. */
export function TlsField({ form, set }: { form: TargetForm; set: (patch: Partial<TargetForm>) => void }) {
  return (
    <>
      <label className="check" title="Explicit opt-out: accept any certificate for this target">
        <input
          type="checkbox"
          checked={form.insecureTls}
          onChange={(e) => set({ insecureTls: e.target.checked })}
        />{' '}
        skip TLS verification (insecure)
      </label>
    </>
  );
}

/** Save or add, cancel, and delete behind a second click. */
export function EditorActions({
  existing,
  busy,
  close,
  confirmDelete,
  setConfirmDelete,
  remove,
}: {
  existing: TargetView | undefined;
  busy: boolean;
  close: () => void;
  confirmDelete: boolean;
  setConfirmDelete: (v: boolean) => void;
  remove: () => Promise<void>;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" className="btn primary" disabled={busy} data-testid="target-save">
          {existing ? 'Save' : 'Add target'}
        </button>
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
        <span className="spacer" />
        {existing &&
          (confirmDelete ? (
            <button
              type="button"
              className="btn danger"
              disabled={busy}
              onClick={() => void remove()}
              data-testid="target-delete-confirm"
            >
              Really delete
            </button>
          ) : (
            <button
              type="button"
              className="btn ghost danger-text"
              onClick={() => setConfirmDelete(true)}
              data-testid="target-delete"
            >
              Delete…
            </button>
          ))}
      </div>
    </>
  );
}
