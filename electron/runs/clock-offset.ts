/**
 * This machine's clock offset against a reference server, from its HTTP `Date` header — so shards
 * on several machines start one schedule at one instant (`run --shard --start-at`).
 *
 * A Date of second S, answered to a probe sent at local time s and received at r, says the
 * reference read a time in [S, S+1) s at some local instant in [s, r]; so the offset
 * θ = reference − local lies in [S·1000 − r, (S+1)·1000 − s]. Every probe gives such an interval
 * and θ lies in all of them: their intersection. One probe alone leaves a second of doubt; probes
 * on both sides of the moment the Date changes pin θ to about their round trip:
 *  1. coarse: a probe every 10 ms until the Date changes (≤ 1 s) → θ within ~10 ms + RTT;
 *  2. fine: at the next second boundary, probes back to back across the ~10 ms window where it
 *     must change → θ within ~one to two round trips (loopback: well under a millisecond);
 *     repeated at the next boundaries (3 at most) while the interval is wider than that.
 * The estimate is the interval's middle, its uncertainty half its width. Assumes the server stamps
 * Date when it answers (Go, nginx, Node — which caches it until the next second boundary);
 * uvicorn (vLLM's and SGLang's API servers) refreshes its Date once a second at its own phase, so
 * against it the offset can be off by up to a second without the probes seeing it — give such
 * runs a `--clock-url` that stamps its Date (README). Intervals that do not meet (a cache, a
 * load balancer over servers whose clocks differ) are reported as inconsistent.
 */
import type { ClockEstimate } from '../../shared/runs/shard/schema.ts';
import { redactUrlString } from '../../shared/redact.ts';
import { localMs, probeClient, type ClockProbe, type ProbeClient } from './clock-probe.ts';
import { errorMessage } from '../../shared/result.ts';

/** Contradicting probes (the Date flipped late) up to this far apart only widen the uncertainty. */
const MAX_CONTRADICTION_MS = 20;

/** @internal exported for its tests */
export interface OffsetInterval {
  lo: number;
  hi: number;
}

/** The offsets (reference − local, ms) a probe allows; null without a Date. @internal exported for its tests */
export function probeInterval(p: ClockProbe): OffsetInterval | null {
  if (p.dateS === null) return null;
  return { lo: p.dateS * 1000 - p.recvMs, hi: (p.dateS + 1) * 1000 - p.sendMs };
}

/** The offsets every probe allows (lo > hi: they contradict each other). @internal exported for its tests */
export function intersect(probes: readonly ClockProbe[]): OffsetInterval | null {
  let lo = -Infinity;
  let hi = Infinity;
  for (const p of probes) {
    const i = probeInterval(p);
    if (!i) continue;
    lo = Math.max(lo, i.lo);
    hi = Math.min(hi, i.hi);
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? { lo, hi } : null;
}

export interface EstimateOptions {
  insecureTls?: boolean;
  /** Gap between coarse probes (default 10 ms). */
  coarseStepMs?: number;
  /** Most probes in one fine round (default 1500: a 20-ms window at a 15-µs round trip). */
  maxProbes?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
}

/** Measures this machine's offset against `url`'s Date (1.2–4.5 s of light probing: the coarse stage, up to 3 fine rounds). */
export async function estimateClockOffset(url: URL, o: EstimateOptions = {}): Promise<ClockEstimate> {
  const source = redactUrlString(url.toString());
  const client = probeClient(url, { insecureTls: o.insecureTls });
  const probes: ClockProbe[] = [];
  const none = (note: string): ClockEstimate => ({
    offsetMs: null,
    uncertaintyMs: null,
    method: 'none',
    source,
    rttMs: probes.length ? median(probes.map((p) => p.recvMs - p.sendMs)) : null,
    probes: probes.length,
    note,
  });
  try {
    // 50 back to back first: the connection open and the probe path warm (a cold one takes ~1 ms
    // a probe, which would be the resolution of the fine stage), the round trip seen.
    for (let k = 0; k < 50; k++) probes.push(await client.probe());
    if (probes.every((p) => p.dateS === null)) return none('the server sends no Date header');
    await coarse(client, probes, o);
    await fine(client, probes, o.maxProbes ?? 1500);
  } catch (e) {
    return none(`clock probe failed: ${errorMessage(e)}`);
  } finally {
    client.close();
  }
  const rttMs = median(probes.map((p) => p.recvMs - p.sendMs));
  const iv = intersect(probes)!;
  if (iv.lo > iv.hi) {
    // The Date changed late at some boundaries (Node's cached Date flips by a timer: ~0.2–2 ms
    // late, by how much varies): the intervals miss each other by δ. A small δ widens the
    // uncertainty by it; a large one (a cache refreshed at its own phase, servers with different
    // clocks behind one address) leaves the offset unknown to a second.
    const delta = iv.lo - iv.hi;
    return {
      offsetMs: (iv.lo + iv.hi) / 2,
      uncertaintyMs: delta <= MAX_CONTRADICTION_MS ? delta + rttMs : 1000,
      method: 'http-date',
      source,
      rttMs,
      probes: probes.length,
      note: `the Date answers contradict each other by ${delta.toFixed(3)} ms (the server's Date changes late at second boundaries, or several servers answer at one address)`,
    };
  }
  return {
    offsetMs: (iv.lo + iv.hi) / 2,
    uncertaintyMs: (iv.hi - iv.lo) / 2,
    method: 'http-date',
    source,
    rttMs,
    probes: probes.length,
  };
}

/** A probe every few ms until the Date changes (at most ~1.2 s). */
async function coarse(client: ProbeClient, probes: ClockProbe[], o: EstimateOptions): Promise<void> {
  const step = o.coarseStepMs ?? 10;
  const first = probes[probes.length - 1]!.dateS;
  const end = localMs() + 1200;
  while (localMs() < end) {
    await sleep(step);
    const p = await client.probe();
    probes.push(p);
    if (p.dateS !== null && p.dateS !== first) return;
  }
}

/**
 * Back-to-back probes across the next second boundary's window, until the Date has changed; again
 * at the next boundary (up to 3 rounds) while the interval is still wider than the round trips
 * explain (a timer woke late and the window was missed, a probe stalled).
 */
async function fine(client: ProbeClient, probes: ClockProbe[], max: number): Promise<void> {
  const rtt = median(probes.map((p) => p.recvMs - p.sendMs));
  for (let round = 0; round < 3; round++) {
    const iv = intersect(probes);
    if (!iv || iv.lo > iv.hi || (iv.hi - iv.lo) / 2 <= 1.5 * rtt + 0.25) return;
    // The boundary k·1000 (reference) happens at local k·1000 − θ, within [k·1000 − hi, k·1000 − lo].
    const margin = 2 * rtt + 5;
    const k = Math.ceil((localMs() + iv.hi + margin + 30) / 1000);
    const from = k * 1000 - iv.hi - margin;
    const until = k * 1000 - iv.lo + margin;
    await sleep(from - localMs() - 10); // woken up to 10 ms early is fine: probing starts at once
    let n = 0;
    while (localMs() < until && n++ < max) {
      const p = await client.probe();
      probes.push(p);
      if (p.dateS !== null && p.dateS >= k) break;
    }
  }
}
