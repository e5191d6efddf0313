/**
 * `tokenscope run --shard I/N --start-at T`: before a shard runs, its clock against the target's
 * (or --clock-url's) HTTP Date, the start instant moved onto this machine's clock, the workload's
 * hash — what the header records and `tokenscope merge` checks. Without --shard, --start-at alone
 * is shard 0/1: a run that starts at a set instant.
 */
import { parseShard, parseStartAt } from '../../shared/runs/shard/shard.ts';
import { type ClockEstimate, type RunShardInfo } from '../../shared/runs/shard/schema.ts';
import type { Workload } from '../../shared/runs/workload/workload.ts';
import { estimateClockOffset } from '../runs/clock-offset.ts';
import { localMs } from '../runs/clock-probe.ts';
import type { PromptProvider } from '../runs/prompts/items.ts';
import { workloadHash } from '../runs/files/workload-hash.ts';

export interface ShardCliOptions {
  /** I/N, 0-based. */
  shard?: string;
  /** Epoch ms or ISO-8601 with a zone, on the reference clock. */
  startAt?: string;
  /** Whose Date is the reference clock (default: the target's origin). */
  clockUrl?: string;
  quiet?: boolean;
  insecure?: boolean;
}

export interface ShardPlan {
  shard: RunShardInfo;
  /** The start instant on this machine's clock (runner's startAtLocalMs). */
  startAtLocalMs: number;
}

/** The shard's plan, null when the run is not sharded nor timed, or what is wrong (exit 2). */
export async function planShard(
  o: ShardCliOptions,
  run: { w: Workload; targetUrl: string; model: string; prompts: PromptProvider },
): Promise<ShardPlan | null | string> {
  if (o.shard === undefined && o.startAt === undefined) return null;
  if (o.startAt === undefined)
    return '--shard needs --start-at: every shard must start the schedule at the same instant';
  const spec =
    o.shard === undefined ? { ok: true as const, value: { index: 0, of: 1 } } : parseShard(o.shard);
  if (!spec.ok) return spec.error;
  // A first check on this clock: a start in the past is refused before a second of probing.
  const early = parseStartAt(o.startAt, localMs());
  if (!early.ok) return early.error;
  let clockUrl: URL;
  try {
    clockUrl = new URL(o.clockUrl ?? '/', o.clockUrl ?? run.targetUrl);
  } catch {
    return `--clock-url ${o.clockUrl}: not a URL`;
  }
  const clock = await estimateClockOffset(clockUrl, { insecureTls: o.insecure });
  if (!o.quiet) process.stderr.write(clockLine(clock) + '\n');
  // On the reference clock now: a time this machine thinks ahead may have passed there.
  const startAt = parseStartAt(o.startAt, localMs() + (clock.offsetMs ?? 0));
  if (!startAt.ok) return startAt.error;
  return {
    shard: {
      ...spec.value,
      workloadHash: workloadHash(run.w, { model: run.model, dialect: run.w.target!.dialect }, run.prompts),
      startAt: startAt.value,
      clock,
    },
    startAtLocalMs: startAt.value - (clock.offsetMs ?? 0),
  };
}

/** "clock: +1.234 ms ± 0.081 ms against http://gpu:8000/ (Date, 231 probes, RTT 0.4 ms)". */
function clockLine(c: ClockEstimate): string {
  if (c.offsetMs === null || c.uncertaintyMs === null)
    return `clock: not measured against ${c.source ?? '?'} (${c.note ?? 'no Date'}); this machine's clock is used as it is`;
  const sign = c.offsetMs >= 0 ? '+' : '';
  return (
    `clock: ${sign}${c.offsetMs.toFixed(3)} ms ± ${c.uncertaintyMs.toFixed(3)} ms against ${c.source} ` +
    `(Date, ${c.probes} probes, RTT ${c.rttMs?.toFixed(2)} ms)${c.note ? `: ${c.note}` : ''}`
  );
}

/** "shard 2/4 (requests i with i mod 4 = 2) · starts 2026-…Z, in 4.2 s · workload sha256:…". */
export function planLine(p: ShardPlan): string {
  const { index, of } = p.shard;
  const inS = ((p.startAtLocalMs - localMs()) / 1000).toFixed(1);
  return (
    `shard ${index}/${of} (requests i with i mod ${of} = ${index}) · starts ${new Date(p.shard.startAt).toISOString()}, in ${inS} s` +
    ` · workload ${p.shard.workloadHash}`
  );
}
