/**
 * The core's metrics events into the stores (subscribed by request/controller.ts before it says
 * ready), and the one call that chooses which targets the core scrapes.
 */
import { api, onEvent } from '../core/api.ts';
import { metricsStore } from './metrics-store.ts';
import { noteScrape, noteState, noteWatchError, stateEventCount } from './summary-store.ts';

export function subscribeMetricsEvents(): (() => void)[] {
  return [
    onEvent('onMetricsScrape', (s) => {
      metricsStore.ingest(s);
      noteScrape(s.targetId);
    }),
    onEvent('onMetricsState', (s) => noteState(s)),
  ];
}

/** Scrape exactly these targets (every second); [] stops scraping. Failures become state, not throws. */
export async function watchMetrics(targetIds: string[]): Promise<void> {
  const before = new Map(targetIds.map((id) => [id, stateEventCount(id)]));
  const r = await api.watchMetrics(targetIds);
  if (!r.ok) {
    for (const id of targetIds) noteWatchError(id, r.error.message);
    return;
  }
  for (const id of targetIds) noteWatchError(id, null);
  // The reply is the state when the call was handled; an event that arrived meanwhile is newer.
  for (const s of r.value) if (stateEventCount(s.targetId) === before.get(s.targetId)) noteState(s);
}
