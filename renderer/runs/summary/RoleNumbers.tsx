/**
 * A disaggregated or routed deployment's roles over a run (summary.server.roles): one column per
 * role (prefill, decode, router, server), each queue's mean / max over the run and the KV-transfer
 * time, in the words of the text summary (shared/runs/summary/roles-text.ts); a server without a
 * number says "not exposed".
 */
import type { ServerSideSummary } from '../../../shared/runs/summary/server-side-schema.ts';
import { kvTransferText, queueText, ROLE_QUEUES } from '../../../shared/runs/summary/roles-text.ts';

export function RoleNumbers({ sv }: { sv: ServerSideSummary }) {
  const roles = sv.roles ?? [];
  if (roles.length === 0) return null;
  return (
    <div className="sum-roles" data-testid="sum-roles">
      <h4>Disaggregated serving · per role</h4>
      <table className="run-table num" aria-label="Per role">
        <thead>
          <tr>
            <th />
            {roles.map((r, i) => (
              <th key={i} title={`${r.url} · ${r.profileName}${r.lastError ? ` · ${r.lastError}` : ''}`}>
                {r.role}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROLE_QUEUES.map(([k, label]) => (
            <tr key={k} data-testid={`sum-role-queue-${k}`}>
              <th scope="row">{label} · mean / max</th>
              {roles.map((r, i) => (
                <td key={i} className={r.queues[k] === null ? 'muted' : undefined}>
                  {r.scrapes === 0 ? 'no scrape' : queueText(r.queues[k])}
                </td>
              ))}
            </tr>
          ))}
          <tr data-testid="sum-role-kv-transfer">
            <th scope="row">KV transfer p50 / p90 / p99 (ms)</th>
            {roles.map((r, i) => (
              <td key={i} className={r.kvTransfer === null ? 'muted wrap' : 'wrap'}>
                {r.scrapes === 0 ? (r.lastError ?? 'no scrape') : kvTransferText(r.kvTransfer)}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
