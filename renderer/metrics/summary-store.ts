/**
 * What React sees of server metrics: per target the scraper's state (status, error, backoff),
 * the latest scrape's profile and counts, and a version that bumps with each scrape. Published
 * at most every PUBLISH_INTERVAL_MS (scrapes arrive about once a second per target; states with
 * them), never per series. Read with narrow selectors: `useMetricsStore((s) => s.targets[id]?.version)`.
 */
import { create } from 'zustand';
import type { MetricsState } from '../../shared/metrics-api.ts';
import { metricsStore, type ScrapeMeta } from './metrics-store.ts';

const PUBLISH_INTERVAL_MS = 250;

interface TargetSummary {
  state: MetricsState | null;
  /** Renderer clock (Date.now()) when `state` arrived: origin of the backoff countdown. */
  stateAt: number;
  /** Scrapes ingested (bumps with each). */
  version: number;
  /** Renderer clock when the latest scrape arrived. */
  lastScrapeAt: number | null;
  meta: ScrapeMeta | null;
  seriesKept: number;
  seriesDropped: number;
  /** watchMetrics itself was refused (not a scrape failure). */
  watchError: string | null;
}

export interface MetricsSummaryState {
  targets: Record<string, TargetSummary>;
}

export const useMetricsStore = create<MetricsSummaryState>(() => ({ targets: {} }));

const EMPTY: TargetSummary = {
  state: null,
  stateAt: 0,
  version: 0,
  lastScrapeAt: null,
  meta: null,
  seriesKept: 0,
  seriesDropped: 0,
  watchError: null,
};

interface Pending {
  state?: MetricsState;
  stateAt?: number;
  lastScrapeAt?: number;
  watchError?: string | null;
}

const pending = new Map<string, Pending>();
/** State events seen per target: a reply to watchMetrics must not overwrite a newer event. */
const stateEvents = new Map<string, number>();

export function stateEventCount(targetId: string): number {
  return stateEvents.get(targetId) ?? 0;
}
let timer: ReturnType<typeof setTimeout> | null = null;
let lastPublish = 0;

/** Apply everything pending now (tests, and the throttled timer). @internal exported for its tests */
export function flushMetricsSummary(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  lastPublish = Date.now();
  if (pending.size === 0) return;
  const next = { ...useMetricsStore.getState().targets };
  for (const [id, p] of pending) {
    const prev = next[id] ?? EMPTY;
    const t = metricsStore.get(id);
    next[id] = {
      state: p.state ?? prev.state,
      stateAt: p.stateAt ?? prev.stateAt,
      version: t?.version ?? prev.version,
      lastScrapeAt: p.lastScrapeAt ?? prev.lastScrapeAt,
      meta: t?.meta ?? prev.meta,
      seriesKept: t?.series.size ?? prev.seriesKept,
      seriesDropped: t?.series.dropped ?? prev.seriesDropped,
      watchError: p.watchError !== undefined ? p.watchError : prev.watchError,
    };
  }
  pending.clear();
  useMetricsStore.setState({ targets: next });
}

function schedule(): void {
  if (timer) return;
  const wait = Math.max(0, lastPublish + PUBLISH_INTERVAL_MS - Date.now());
  timer = setTimeout(flushMetricsSummary, wait);
}

function patch(id: string, p: Pending): void {
  pending.set(id, { ...pending.get(id), ...p });
  schedule();
}

export function noteScrape(targetId: string, at = Date.now()): void {
  patch(targetId, { lastScrapeAt: at, watchError: null });
}

export function noteState(s: MetricsState, at = Date.now()): void {
  stateEvents.set(s.targetId, stateEventCount(s.targetId) + 1);
  patch(s.targetId, { state: s, stateAt: at });
}

export function noteWatchError(targetId: string, message: string | null): void {
  patch(targetId, { watchError: message });
}

/** Forget everything (tests). @internal exported for its tests */
export function resetMetricsSummary(): void {
  pending.clear();
  stateEvents.clear();
  if (timer) clearTimeout(timer);
  timer = null;
  lastPublish = 0;
  useMetricsStore.setState({ targets: {} });
}
