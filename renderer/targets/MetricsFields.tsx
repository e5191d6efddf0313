import { RoleEndpointsField } from './RoleEndpointsField.tsx';
import { Field } from '../core/form/Field.tsx';
import { type TargetErrors, type TargetForm } from './target-input.ts';

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
          <Field
            label={form.metricsSource === 'prometheus' ? 'Query every (s)' : 'Scrape every (s)'}
            id="te-interval"
            error={errors.metricsInterval}
          >
            <input
              className="mono"
              inputMode="decimal"
              value={form.metricsInterval}
              onChange={(e) => set({ metricsInterval: e.target.value })}
              data-testid="target-metrics-interval"
            />
          </Field>
          <Field label="Timeout (s)" id="te-timeout" error={errors.metricsTimeout}>
            <input
              className="mono"
              inputMode="decimal"
              value={form.metricsTimeout}
              onChange={(e) => set({ metricsTimeout: e.target.value })}
              placeholder="auto: the interval, 1–10 s"
              data-testid="target-metrics-timeout"
            />
          </Field>
        </div>
        <p className="field-hint wrap">
          While the Server metrics tab is open. A failure is retried after 2ⁿ intervals (at most 30 s), and
          shown.
        </p>
      </fieldset>
    </>
  );
}
