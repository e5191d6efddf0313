/**
 * A disaggregated or routed deployment's roles over a run (summary.server.roles) as text, in the
 * summary's 40-column rows: each role's queues (mean / max over the scrapes during the run) and
 * its KV-transfer time; what a server does not expose says so, never a 0.
 */
import type { KvTransferStats, QueueStats, RoleQueueKey, RoleSideSummary } from './server-side-schema.ts';
import { bucketText, serverQuantileRange } from './server-quantile.ts';

const NOT_EXPOSED = 'not exposed';

/** The queues in the order a request meets them, with their names in words. */
export const ROLE_QUEUES: readonly (readonly [RoleQueueKey, string])[] = [
  ['waiting', 'Waiting queue'],
  ['prefillPrealloc', 'Prefill queue (prealloc)'],
  ['prefillInflight', 'Prefill sending KV'],
  ['decodePrealloc', 'Decode queue (prealloc)'],
  ['decodeTransfer', 'Decode receiving KV'],
];

const f2 = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : v.toFixed(2));
const row = (label: string, value: string): string => `${label.padEnd(40)} ${value}`;

export function queueText(q: QueueStats | null): string {
  return q === null ? NOT_EXPOSED : `${f2(q.mean)} / ${q.max}`;
}

/** p50 / p90 / p99 (a quantile only known to a wide bucket as the bucket), or the counters' mean. */
export function kvTransferText(k: KvTransferStats | null): string {
  if (k === null) return NOT_EXPOSED;
  if (k.count === 0) return 'no transfer during the run';
  if (k.source === 'counters') return `mean ${f2(k.mean)} (from counters, ${k.count} transfers)`;
  const q = (key: 'p50' | 'p90' | 'p99'): string => {
    const range = key === 'p90' ? null : serverQuantileRange(k, key);
    return range ? bucketText(range) : f2(k[key]);
  };
  return `${q('p50')} / ${q('p90')} / ${q('p99')}  (mean ${f2(k.mean)}, ${k.count} transfers)`;
}

export function rolesSection(roles: readonly RoleSideSummary[]): string[] {
  const L = ['-'.repeat(9) + 'Disaggregated serving (per role)' + '-'.repeat(9)];
  for (const r of roles) {
    L.push(row(`[${r.role}] Read from:`, `${r.url} (${r.profileName})`));
    if (r.scrapes === 0) {
      L.push(row(`[${r.role}] No metrics:`, r.lastError ?? 'no scrape succeeded'));
      continue;
    }
    for (const [k, label] of ROLE_QUEUES)
      L.push(row(`[${r.role}] ${label} mean / max:`, queueText(r.queues[k])));
    L.push(row(`[${r.role}] KV transfer p50 / p90 / p99 (ms):`, kvTransferText(r.kvTransfer)));
    if (r.failures > 0) L.push(row(`[${r.role}] Failed scrapes:`, `${r.failures} (${r.lastError ?? ''})`));
  }
  return L;
}
