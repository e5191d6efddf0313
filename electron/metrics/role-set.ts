/**
 * A target's role endpoints (issue 28 §4: a disaggregated deployment's prefill and decode servers,
 * its router), scraped together on the tick of the server's own scrape so every role shares one
 * clock; each result keeps its role. Like telemetry endpoints, they get none of the target's
 * headers or API key (another server). A failing endpoint is said in its result, never hides the
 * others.
 */
import type { MetricsEndpoint } from '../../shared/metrics/roles.ts';
import { errorMessage } from '../../shared/result.ts';
import { Scraper, type ScrapeResult } from './scraper.ts';

export interface RoleScrape {
  endpoint: MetricsEndpoint;
  /** The scrape, or null when it failed (error says why) or was skipped. */
  result: ScrapeResult | null;
  error: string | null;
}

export class RoleSet {
  private readonly scrapers: { endpoint: MetricsEndpoint; scraper: Scraper | null; error: string | null }[];

  constructor(
    endpoints: readonly MetricsEndpoint[],
    opts: { insecureTls?: boolean; timeoutMs?: number } = {},
  ) {
    this.scrapers = endpoints.map((endpoint) => {
      try {
        const scraper = new Scraper(
          {
            url: endpoint.url,
            metricsPath: endpoint.url,
            insecureTls: opts.insecureTls,
            timeoutMs: opts.timeoutMs,
          },
          { onListenerError: () => undefined },
        );
        return { endpoint, scraper, error: null };
      } catch (e) {
        return { endpoint, scraper: null, error: errorMessage(e) };
      }
    });
  }

  get endpoints(): MetricsEndpoint[] {
    return this.scrapers.map((s) => s.endpoint);
  }

  /** Every endpoint once, in parallel; in the order they were listed. */
  async scrapeAll(): Promise<RoleScrape[]> {
    return Promise.all(
      this.scrapers.map(async ({ endpoint, scraper, error }): Promise<RoleScrape> => {
        if (scraper === null) return { endpoint, result: null, error };
        const r = await scraper.scrapeOnce();
        if (r === null) return { endpoint, result: null, error: null };
        if (!('parsed' in r)) return { endpoint, result: null, error: r.message };
        return { endpoint, result: r, error: null };
      }),
    );
  }

  stop(): void {
    for (const s of this.scrapers) s.scraper?.stop();
  }
}
