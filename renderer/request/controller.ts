/**
 * The stream debugger's controller: the core's request events into the live store (every batch)
 * and the request store (throttled to ~5 updates a second while streaming, once at the end), and
 * the user's actions: fire, cancel, reopen, re-run, compare. Subscribed by shell/start.ts.
 */
import type { FireInput, RequestSnapshot } from '../../shared/api.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { api, onEvent } from '../core/api.ts';
import { clientTokens } from '../core/client-tokens.ts';
import { liveStore, type LiveRequest } from './live-store.ts';
import { digestOf, recordView } from './record-view.ts';
import { setNotice } from '../core/app-store.ts';
import {
  EMPTY_SLOT,
  upsertSummary,
  useRequestStore,
  type RequestSlot,
  type RequestState,
} from './request-store.ts';

/** At most this often (ms) are stats recomputed while a request streams: ~5 times a second. @internal exported for its tests */
export const DERIVE_INTERVAL_MS = 200;

function stateOf(r: LiveRequest): RequestState {
  if (r.final) {
    const e = r.final.error;
    return e?.code === 'cancelled' ? 'cancelled' : e ? 'error' : 'done';
  }
  const s = r.summary?.state;
  return s && s !== 'running' ? s : 'running';
}

/** @internal exported for its tests */
export function deriveSlot(id: string | null): RequestSlot {
  const r = liveStore.get(id);
  if (!id || !r) return id ? { ...EMPTY_SLOT, id, state: 'running' } : EMPTY_SLOT;
  const rec = recordView(r);
  return {
    id,
    state: stateOf(r),
    stats: computeRequestStats(rec),
    digest: digestOf(rec),
    summary: r.summary,
    missing: r.cols.missing,
  };
}

let timer: ReturnType<typeof setTimeout> | null = null;
let lastDerive = 0;

function deriveNow(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  lastDerive = performance.now();
  const { current, compare } = useRequestStore.getState();
  useRequestStore.setState({
    current: deriveSlot(current.id),
    compare: compare.id ? deriveSlot(compare.id) : EMPTY_SLOT,
  });
}

function scheduleDerive(): void {
  if (timer) return;
  const wait = Math.max(0, lastDerive + DERIVE_INTERVAL_MS - performance.now());
  timer = setTimeout(deriveNow, wait);
}

function onScreen(id: string): boolean {
  const { current, compare } = useRequestStore.getState();
  return id === current.id || id === compare.id;
}

function pin(): void {
  const { current, compare } = useRequestStore.getState();
  liveStore.pinned.clear();
  if (current.id) liveStore.pinned.add(current.id);
  if (compare.id) liveStore.pinned.add(compare.id);
}

async function loadSnapshot(id: string): Promise<RequestSnapshot | null> {
  const r = await api.getRequest(id);
  if (!r.ok) {
    setNotice({ tone: 'error', text: r.error.message });
    return null;
  }
  liveStore.finished(r.value);
  return r.value;
}

/** This session's requests, listed anew (after a reconnect: events sent meanwhile are gone). */
export async function refreshRequestHistory(): Promise<void> {
  const history = await api.listHistory();
  if (history.ok) useRequestStore.setState({ history: history.value });
}

/** The request on screen, reloaded if it finished while the link was down. */
export function reloadCurrentIfRunning(): void {
  const cur = useRequestStore.getState().current;
  if (cur.id && cur.state === 'running') void loadSnapshot(cur.id).then((s) => s && deriveNow());
}

/** The core's request events into the live store and the request store. Returns the teardowns. */
export function subscribeRequestEvents(): (() => void)[] {
  return [
    onEvent('onRequestStarted', (s) => {
      liveStore.started(s);
      useRequestStore.setState((st) => ({ history: upsertSummary(st.history, s) }));
    }),
    onEvent('onRequestBatch', (b) => {
      liveStore.batch(b);
      const sum = liveStore.get(b.requestId)?.summary;
      // This client's tokens per second, for the metrics panel (beside the server's counters).
      if (sum)
        for (let i = 0; i < b.t.length; i++)
          clientTokens.add(sum.targetId, sum.startedAtWall + b.t[i]!, b.tokens[i]!);
      if (onScreen(b.requestId)) scheduleDerive();
    }),
    onEvent('onRequestFinished', (snap) => {
      liveStore.finished(snap);
      useRequestStore.setState((st) => ({ history: upsertSummary(st.history, snap.summary) }));
      if (onScreen(snap.summary.id)) deriveNow();
    }),
    () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  ];
}

export async function fire(input: FireInput): Promise<boolean> {
  useRequestStore.setState({ firing: true, fireError: null });
  const r = await api.fireRequest(input);
  if (!r.ok) {
    useRequestStore.setState({ firing: false, fireError: r.error.message });
    return false;
  }
  const id = r.value.requestId;
  liveStore.setInput(id, input);
  useRequestStore.setState({ firing: false, current: deriveSlot(id) });
  pin();
  return true;
}

/**
 * The same request at two servers at the same moment (both calls go out together): `a` becomes
 * the request on screen and `b` its comparison, both drawing live on one time axis. When one
 * cannot start, the other still runs and the error says which.
 */
export async function fireSideBySide(a: FireInput, b: FireInput, names: [string, string]): Promise<boolean> {
  useRequestStore.setState({ firing: true, fireError: null });
  const [ra, rb] = await Promise.all([api.fireRequest(a), api.fireRequest(b)]);
  const errors = [ra, rb].flatMap((r, i) => (r.ok ? [] : [`${names[i]}: ${r.error.message}`]));
  if (ra.ok) liveStore.setInput(ra.value.requestId, a);
  if (rb.ok) liveStore.setInput(rb.value.requestId, b);
  const first = ra.ok ? ra.value.requestId : rb.ok ? rb.value.requestId : null;
  const second = ra.ok && rb.ok ? rb.value.requestId : null;
  useRequestStore.setState({
    firing: false,
    fireError: errors.length ? errors.join('; ') : null,
    ...(first ? { current: deriveSlot(first), compare: second ? deriveSlot(second) : EMPTY_SLOT } : {}),
  });
  pin();
  return errors.length === 0;
}

/** Cancel the request on screen, and its comparison too when that one is still streaming. */
export async function cancelCurrent(): Promise<void> {
  const { current, compare } = useRequestStore.getState();
  const ids = [current, compare].filter((s) => s.id && s.state === 'running').map((s) => s.id!);
  if (current.state !== 'running') return;
  const results = await Promise.all(ids.map((id) => api.cancelRequest(id)));
  const failed = results.find((r) => !r.ok);
  if (failed && !failed.ok) setNotice({ tone: 'error', text: `Cancel failed: ${failed.error.message}` });
}

/** Show a request of this session (running or finished) as the current one. */
export async function openRequest(id: string): Promise<void> {
  const live = liveStore.get(id);
  if (!live?.final && live?.summary?.state !== 'running') {
    if (!(await loadSnapshot(id))) return;
  }
  useRequestStore.setState({ current: deriveSlot(id) });
  pin();
}

/** Fire the same FireInput again. */
export async function rerun(id: string): Promise<boolean> {
  let input = liveStore.get(id)?.input ?? null;
  if (!input) input = (await loadSnapshot(id))?.input ?? null;
  if (!input) return false;
  return fire(input);
}

/** Compare the current request with `id` (null stops comparing). */
export async function setCompare(id: string | null): Promise<void> {
  if (id) {
    const live = liveStore.get(id);
    if (!live?.final && live?.summary?.state !== 'running' && !(await loadSnapshot(id))) return;
  }
  useRequestStore.setState({ compare: id ? deriveSlot(id) : EMPTY_SLOT });
  pin();
}

/** Stored FireInput of a request (for "load into composer"). */
export async function inputOf(id: string): Promise<FireInput | null> {
  return liveStore.get(id)?.input ?? (await loadSnapshot(id))?.input ?? null;
}
