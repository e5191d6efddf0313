/**
 * What the timeline draws for one request, derived from its live columns and cached per data
 * version, so a frame redrawn for a hover or a zoom recomputes nothing. TTFT and first event
 * come from computeRequestStats, the one definition.
 */
import { EV_CONTENT } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { detectStalls } from './timeline/stalls.ts';
import type { LaneModel } from './timeline/timeline-draw.ts';
import type { LiveRequest } from './live-store.ts';
import { recordView } from './record-view.ts';

export type LaneBase = Omit<LaneModel, 'label' | 'color'> & {
  /** The latest time anything happened (ms): the right edge of the auto-fitted view. */
  lastMs: number;
  stallThresholdMs: number | null;
};

const cache = new WeakMap<LiveRequest, { version: number; base: LaneBase }>();

export function laneBase(r: LiveRequest): LaneBase {
  const hit = cache.get(r);
  if (hit && hit.version === r.version) return hit.base;
  const c = r.cols;
  const stats = computeRequestStats(recordView(r));
  const stalls = detectStalls(c);
  let maxTokens = 1;
  for (let i = 0; i < c.n; i++)
    if (c.flags[i]! & EV_CONTENT && c.tokens[i]! > maxTokens) maxTokens = c.tokens[i]!;
  const errorAtMs = r.final?.error?.atMs ?? null;
  const p = r.phases;
  const lastMs = Math.max(
    0,
    p.endMs ?? 0,
    c.n ? c.t[c.n - 1]! : 0,
    errorAtMs ?? 0,
    p.firstByteMs ?? 0,
    p.headersMs ?? 0,
  );
  const base: LaneBase = {
    n: c.n,
    t: c.t,
    tokens: c.tokens,
    flags: c.flags,
    firstEventMs: stats.firstEventMs,
    ttftMs: stats.ttftMs,
    // A TTFAT marker only where there was reasoning: otherwise it is TTFT.
    firstAnswerMs: stats.reasoningTokens !== null ? stats.firstAnswerMs : null,
    endMs: p.endMs,
    errorAtMs,
    cancelled: r.final?.error?.code === 'cancelled',
    stalls: stalls.stalls,
    stallThresholdMs: stalls.thresholdMs,
    maxTokens,
    lastMs,
  };
  cache.set(r, { version: r.version, base });
  return base;
}
