/**
 * Summaries of the requests on screen: the current one and the one it is compared with (state,
 * stats from computeRequestStats, record digest), the session history and the fire status.
 * Updated a few times a second while streaming and once at the end (request/controller.ts), never
 * per event; the per-event data stays in live/.
 */
import { create } from 'zustand';
import type { RequestSummary } from '../../shared/api.ts';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import type { RecordDigest } from './record-view.ts';

export type RequestState = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

export interface RequestSlot {
  id: string | null;
  state: RequestState;
  stats: RequestStats | null;
  digest: RecordDigest | null;
  summary: RequestSummary | null;
  /** Some batches were missed (reconnect); the final snapshot repairs the data. */
  missing: boolean;
}

export const EMPTY_SLOT: RequestSlot = {
  id: null,
  state: 'idle',
  stats: null,
  digest: null,
  summary: null,
  missing: false,
};

export interface RequestStoreState {
  current: RequestSlot;
  compare: RequestSlot;
  history: RequestSummary[];
  /** fireRequest is on its way (Send disabled). */
  firing: boolean;
  fireError: string | null;
  /** Send also fires the same request at this target, at the same moment, shown as the comparison. */
  sideBySideTargetId: string | null;
}

export const useRequestStore = create<RequestStoreState>(() => ({
  current: EMPTY_SLOT,
  compare: EMPTY_SLOT,
  history: [],
  firing: false,
  fireError: null,
  sideBySideTargetId: null,
}));

/** Insert or update one summary, newest first (running requests stay on top by start time). */
export function upsertSummary(list: RequestSummary[], s: RequestSummary): RequestSummary[] {
  const i = list.findIndex((x) => x.id === s.id);
  const next = i >= 0 ? list.map((x, j) => (j === i ? s : x)) : [s, ...list];
  return next.sort((a, b) => b.startedAtWall - a.startedAtWall).slice(0, 100);
}
