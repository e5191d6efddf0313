/**
 * A disaggregated or routed deployment's other metrics endpoints, each with its role
 * (shared/metrics/roles.ts): a run scrapes them with the server's metrics and shows each role's
 * queues and KV-transfer time.
 */
import type { TargetErrors, TargetForm } from './target-input.ts';

export function RoleEndpointsField({
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
      <label htmlFor="te-role-endpoints">Prefill / decode / router metrics</label>
      <textarea
        id="te-role-endpoints"
        className="mono"
        rows={2}
        value={form.metricsEndpoints}
        onChange={(e) => set({ metricsEndpoints: e.target.value })}
        placeholder={'prefill=http://prefill-0:30000/metrics\ndecode=http://decode-0:30001/metrics'}
        spellCheck={false}
        data-testid="target-role-endpoints"
      />
      {errors.metricsEndpoints && <p className="field-error">{errors.metricsEndpoints}</p>}
      <p className="field-hint wrap">
        A disaggregated deployment: one <code>role=URL</code> a line (roles: prefill, decode, router, server;
        up to 8), scraped with the server’s metrics. A run shows each role’s queues and KV-transfer time.
      </p>
    </>
  );
}
