/**
 * Which of a run's measurements a stall of the loop that stamps reads touched (the self-check's
 * `stallTouches`, electron/runs/self-check.ts). A loop held up for longer than STALL_BOUND_MS
 * stamps every read that became readable meanwhile late, so a p99 of the loop delay hides it (a
 * 66-ms stall among 131k reads passes); instead every content event stamped from the stall's start
 * (the loop's last on-time probe) to STALL_BOUND_MS after its end counts, and with it the
 * request's TTFT (its first content event) or the ITL gaps the event ends or begins.
 */
import { EV_CONTENT } from '../../request.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import type { StallTouches } from './self-check-schema.ts';

/** A stall longer than this (ms) counts; events up to this long after it count with it. @internal exported for its tests */
export const STALL_BOUND_MS = 5;
/** Touched requests named in the summary. */
const STALL_IDS_MAX = 50;

/** Overlapping or touching [from, to] windows merged, sorted (flat pairs in, flat pairs out). @internal exported for its tests */
export function mergeWindows(flat: readonly number[], afterMs: number): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]! + afterMs]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [a, b] of pairs) {
    const n = out.length;
    if (n > 0 && a <= out[n - 1]!) out[n - 1] = Math.max(out[n - 1]!, b);
    else out.push(a, b);
  }
  return out;
}

/** Whether t falls in one of the merged windows (binary search). */
function inWindows(w: readonly number[], t: number): boolean {
  let lo = 0;
  let hi = w.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t < w[2 * mid]!) hi = mid - 1;
    else if (t > w[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A request as the stall count reads it: its id, send time and content events' times (ms since the send). */
export interface StallItem {
  id: string;
  sentMs: number;
  content: ArrayLike<number>;
}

/** The content events' times of a line (ms since its send). */
export function contentTimes(line: RunRequestLine): number[] {
  const { t, f } = line.events;
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) if (f[i]! & EV_CONTENT) out.push(t[i]!);
  return out;
}

/** A line as the stall count reads it; null when it does not count (warm-up, or never sent). */
function stallItemOf(line: RunRequestLine, content?: ArrayLike<number>): StallItem | null {
  if (line.warmup || line.sentMs === undefined) return null;
  return { id: line.id, sentMs: line.sentMs, content: content ?? contentTimes(line) };
}

/**
 * The stall count's items, kept as a run's lines finish (the lines themselves need not stay):
 * content times in Float64Arrays, 8 B an event.
 */
export class StallLog implements Iterable<StallItem> {
  private readonly items: StallItem[] = [];

  /** `content`: the line's content times already kept (run-accumulator.ts LineValues), else copied. */
  add(line: RunRequestLine, content?: Float64Array): void {
    const it = stallItemOf(line, content);
    if (!it) return;
    if (!(it.content instanceof Float64Array)) it.content = Float64Array.from(it.content);
    this.items.push(it);
  }

  [Symbol.iterator](): Iterator<StallItem> {
    return this.items[Symbol.iterator]();
  }
}

/** The items of a run's lines (warm-up lines and lines without a send time are left out). @internal exported for its tests */
export function* stallItemsOf(lines: Iterable<RunRequestLine>): Generator<StallItem> {
  for (const l of lines) {
    const it = stallItemOf(l);
    if (it) yield it;
  }
}

/**
 * `windows`: stall windows on the run clock (flat [from, to] pairs, stalls over STALL_BOUND_MS);
 * `items`: the run's requests (StallLog, or `stallItemsOf` its lines).
 */
export function stallTouches(windows: readonly number[], items: Iterable<StallItem>): StallTouches {
  const w = mergeWindows(windows, STALL_BOUND_MS);
  const out: StallTouches = {
    boundMs: STALL_BOUND_MS,
    stalls: windows.length / 2,
    events: 0,
    requests: 0,
    ttft: 0,
    gaps: 0,
    ids: [],
  };
  if (w.length === 0) return out;
  for (const item of items) {
    const t = item.content;
    const sent = item.sentMs;
    let events = 0;
    let gaps = 0;
    let first = true;
    let prevTouched = false;
    for (let i = 0; i < t.length; i++) {
      const touched = inWindows(w, sent + t[i]!);
      if (touched) {
        events++;
        if (first) out.ttft++;
      }
      // A gap is touched when either of its ends was stamped in a stall.
      if (!first && (touched || prevTouched)) gaps++;
      first = false;
      prevTouched = touched;
    }
    if (events === 0) continue;
    out.events += events;
    out.gaps += gaps;
    out.requests++;
    if (out.ids.length < STALL_IDS_MAX) out.ids.push(item.id);
  }
  return out;
}

/** The self-check's reason when a stall touched any event (null: none did). */
export function stallReason(s: StallTouches): string | null {
  if (s.events === 0) return null;
  return (
    `${s.events} event${s.events === 1 ? '' : 's'} in ${s.requests} request${s.requests === 1 ? '' : 's'} ` +
    `stamped in or just after a loop stall > ${s.boundMs} ms (${s.ttft} TTFT, ${s.gaps} ITL gaps)`
  );
}
