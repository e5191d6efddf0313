/**
 * Scrape the given targets while the calling view is mounted: watchMetrics(ids) on mount, on a
 * change of targets, when its URLs change (the core keeps a running scraper's URL, so it is stopped
 * and started again) and after the link to the core reconnects; watchMetrics([]) when the view
 * goes away, so nothing is scraped while nobody looks.
 */
import { useEffect } from 'react';
import { watchMetrics } from './metrics-events.ts';
import { useAppStore } from '../core/app-store.ts';

export function useMetricsWatch(targetIds: readonly string[], urls = ''): void {
  const reconnects = useAppStore((s) => s.connection.reconnects);
  const key = targetIds.join('\n');
  useEffect(() => {
    if (!key) return;
    void watchMetrics(key.split('\n'));
    return () => {
      void watchMetrics([]);
    };
  }, [key, urls, reconnects]);
}
