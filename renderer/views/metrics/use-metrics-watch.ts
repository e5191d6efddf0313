/**
 * Scrape the given target while the calling view is mounted: watchMetrics([id]) on mount, on a
 * target change, when its URLs change (the core keeps a running scraper's URL, so it is stopped
 * and started again) and after the link to the core reconnects; watchMetrics([]) when the view
 * goes away, so nothing is scraped while nobody looks.
 */
import { useEffect } from 'react';
import { watchMetrics } from '../../metrics/metrics-events.ts';
import { useAppStore } from '../../stores/app-store.ts';

export function useMetricsWatch(targetId: string | null, urls = ''): void {
  const reconnects = useAppStore((s) => s.connection.reconnects);
  useEffect(() => {
    if (!targetId) return;
    void watchMetrics([targetId]);
    return () => {
      void watchMetrics([]);
    };
  }, [targetId, urls, reconnects]);
}
