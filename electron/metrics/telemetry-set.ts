/**
 * A target's telemetry endpoints (dcgm-exporter, node_exporter), scraped together on the tick of
 * its server's scrape, so GPU and server series share one clock. Each endpoint is read with the
 * same GET as /metrics; the target's headers and API key are not sent to them (another server).
 * A failing endpoint is said in its reading, never hides the others.
 */
import { readTelemetry } from '../../shared/metrics/telemetry.ts';
import type { TelemetryScrape } from '../../shared/metrics-api.ts';
import { Scraper } from './scraper.ts';
import { errorMessage } from '../../shared/result.ts';

export interface TelemetrySetOptions {
  insecureTls?: boolean;
  timeoutMs?: number;
}

export class TelemetrySet {
  private readonly scrapers: { url: string; scraper: Scraper | null; error: string | null }[];

  constructor(urls: readonly string[], opts: TelemetrySetOptions = {}) {
    this.scrapers = urls.map((url) => {
      try {
        const scraper = new Scraper(
          { url, metricsPath: url, insecureTls: opts.insecureTls, timeoutMs: opts.timeoutMs },
          { onListenerError: () => undefined },
        );
        return { url, scraper, error: null };
      } catch (e) {
        return { url, scraper: null, error: errorMessage(e) };
      }
    });
  }

  get size(): number {
    return this.scrapers.length;
  }

  /** Every endpoint once, in parallel; in the order they were listed. */
  async scrapeAll(): Promise<TelemetryScrape[]> {
    return Promise.all(
      this.scrapers.map(async ({ url, scraper, error }): Promise<TelemetryScrape> => {
        const none = { url, exporter: 'unknown' as const, gpus: [], host: null };
        if (scraper === null) return { ...none, monoMs: performance.now(), error };
        const r = await scraper.scrapeOnce();
        if (r === null) return { ...none, monoMs: performance.now(), error: null };
        if (!('parsed' in r)) return { ...none, monoMs: performance.now(), error: r.message };
        return { url, monoMs: r.monoMs, error: null, ...readTelemetry(r.parsed) };
      }),
    );
  }

  stop(): void {
    for (const s of this.scrapers) s.scraper?.stop();
  }
}
