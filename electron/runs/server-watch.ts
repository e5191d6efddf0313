/**
 * Watches the server's own metrics through a load run (its /metrics, or a Prometheus that scrapes
 * it; the same Scraper as the metrics panel) and sums them up over the measured run: a baseline
 * scrape right before the clock starts, one a second during the run, a last one once every
 * request has ended. From those: peaks of the running / waiting / KV-cache gauges, the counter
 * increases (generation and prompt tokens, preemptions), and the server's TTFT, queue-time, E2E
 * and inter-token histograms over the window, as quantiles. Counters and histograms are summed
 * scrape to scrape with reset handling (Prometheus' increase()), so a server that restarts
 * mid-run loses nothing counted before the restart. A server without metrics costs the run
 * nothing: its failure is kept and said.
 */
import type { ServerSample, ServerSideSummary } from '../../shared/runs/summary/server-side-schema.ts';
import { extractConcepts } from '../../shared/metrics/concepts.ts';
import { energyOverWindow, perToken, type GpuTick } from '../../shared/runs/summary/energy.ts';
import { Scraper, type ScrapeResult, type ScrapeTarget } from '../metrics/scraper.ts';
import { TelemetrySet } from '../metrics/telemetry-set.ts';
import { RoleSet } from '../metrics/role-set.ts';
import { DISAGG_SCALAR_CONCEPTS } from '../../shared/metrics/profile-types.ts';
import type { MetricsEndpoint } from '../../shared/metrics/roles.ts';
import type { RoleSideSummary } from '../../shared/runs/summary/server-side-schema.ts';
import {
  histStats,
  increase,
  peak,
  roleSummary,
  serverPrefixCache,
  type RoleInput,
  type Snap,
} from './server-stats.ts';
import { readSpecDecode, specDecodeWindow } from '../../shared/metrics/spec-decode.ts';
import { redactUrlString } from '../../shared/redact.ts';

const MAX_SERIES = 2000;

export class ServerWatch {
  private readonly scraper: Scraper;
  private readonly snaps: Snap[] = [];
  private profile = { id: 'unknown', label: 'Unknown server' };
  private lastError: string | null = null;
  /** Telemetry endpoints (GPU energy), read on each server scrape's tick. */
  private readonly telemetry: TelemetrySet | null;
  private readonly telemetryUrls: readonly string[];
  private readonly telemetryErrors = new Map<string, string>();
  private readonly ticks: GpuTick[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** The target's role endpoints (prefill, decode, router…), read on each server scrape's tick. */
  private readonly roles: RoleSet | null;
  private readonly roleData: (RoleInput & { snaps: Snap[] })[];

  constructor(
    private readonly target: ScrapeTarget,
    /** Filter concepts on this model (servers that label series by model). */
    private readonly model: string | null,
    telemetryUrls: readonly string[] = [],
    metricsEndpoints: readonly MetricsEndpoint[] = [],
  ) {
    this.roles = metricsEndpoints.length
      ? new RoleSet(metricsEndpoints, { insecureTls: target.insecureTls, timeoutMs: target.timeoutMs })
      : null;
    this.roleData = metricsEndpoints.map((e) => ({
      role: e.role,
      url: redactUrlString(e.url),
      profile: { id: 'unknown', label: 'Unknown server' },
      snaps: [],
      failures: 0,
      lastError: null,
    }));
    this.telemetryUrls = [...telemetryUrls];
    this.telemetry = telemetryUrls.length
      ? new TelemetrySet(telemetryUrls, { insecureTls: target.insecureTls, timeoutMs: target.timeoutMs })
      : null;
    this.scraper = new Scraper(
      { intervalMs: 1000, ...target },
      {
        onScrape: (r) => this.keep(r),
        onState: (s) => {
          if (s.lastError) this.lastError = s.lastError.message;
        },
        onListenerError: () => undefined,
      },
    );
  }

  private keep(r: ScrapeResult): void {
    this.profile = { id: r.profile.id, label: r.profile.label };
    const concepts = extractConcepts(r.parsed, r.profile, this.model ? { model: this.model } : {});
    const model = this.model ? { [r.profile.modelLabel ?? 'model_name']: this.model } : undefined;
    this.snaps.push({ monoMs: r.monoMs, concepts, spec: readSpecDecode(r.parsed, model) });
    this.scrapeRoles();
    if (this.telemetry === null) return;
    const p = this.telemetry.scrapeAll().then((rs) => {
      for (const t of rs) {
        if (t.error !== null) this.telemetryErrors.set(t.url, t.error);
        if (t.gpus.length > 0) this.ticks.push({ t: t.monoMs, gpus: t.gpus });
      }
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Every role endpoint once, on this tick; each result kept with its role. */
  private scrapeRoles(): void {
    if (this.roles === null) return;
    const filter = this.model ? { model: this.model } : {};
    this.track(
      this.roles.scrapeAll().then((rs) =>
        rs.forEach((x, i) => {
          const d = this.roleData[i];
          if (d === undefined) return;
          if (x.result !== null) {
            d.profile = { id: x.result.profile.id, label: x.result.profile.label };
            d.snaps.push({
              monoMs: x.result.monoMs,
              concepts: extractConcepts(x.result.parsed, x.result.profile, filter),
            });
          } else if (x.error !== null) {
            d.failures++;
            d.lastError = x.error;
          }
        }),
      ),
    );
  }

  /**
   * Per role: the server's own endpoint (as 'server') when the target lists roles or the server
   * itself has disaggregated-serving metrics, then each listed endpoint.
   */
  private roleSummaries(t0: number, url: string, failures: number): { roles?: RoleSideSummary[] } {
    const own = this.snaps.some((s) => DISAGG_SCALAR_CONCEPTS.some((k) => s.concepts[k] !== null));
    const list: RoleSideSummary[] = [];
    if (this.roles !== null || own)
      list.push(
        roleSummary(
          {
            role: 'server',
            url,
            profile: this.profile,
            snaps: this.snaps,
            failures,
            lastError: this.lastError,
          },
          t0,
        ),
      );
    for (const d of this.roleData) list.push(roleSummary(d, t0));
    return list.length ? { roles: list } : {};
  }

  /** GPU energy over the window: from the last telemetry tick at or before t0 to the last one. */
  private energy(t0: number, outputTokens: number | undefined) {
    if (this.telemetry === null) return {};
    const ticks = [...this.ticks].sort((a, b) => a.t - b.t);
    let from = 0;
    for (let i = 0; i < ticks.length; i++) if (ticks[i]!.t <= t0) from = i;
    const e = energyOverWindow(ticks.slice(from), t0);
    return {
      // Joules per output token: every GPU's energy over the window / the run's output tokens.
      energy: e !== null && outputTokens !== undefined ? perToken(e, outputTokens) : e,
      telemetry: this.telemetryUrls.map((url) => ({ url, error: this.telemetryErrors.get(url) ?? null })),
    };
  }

  /** One scrape now (the baseline before the clock starts, and the last after the run). */
  async scrapeNow(): Promise<void> {
    const r = await this.scraper.scrapeOnce();
    if (r !== null && !('parsed' in r)) {
      this.lastError = r.message;
      this.scrapeRoles(); // the roles keep their baseline and last reading without the server's
    }
    // Its telemetry too (started on the scrape's tick): the baseline is taken before the clock starts.
    await Promise.all([...this.pending]);
  }

  start(): void {
    this.scraper.start();
  }

  /** Stops the periodic scrapes, takes the last one, and sums up against the run's clock (t0). */
  async finish(t0: number, outputTokens?: number): Promise<ServerSideSummary> {
    this.scraper.stop();
    await this.scrapeNow();
    this.telemetry?.stop();
    this.roles?.stop();
    const snaps = [...this.snaps].sort((a, b) => a.monoMs - b.monoMs);
    // The window: the last scrape at or before the clock started (else the first), to the last.
    let from = 0;
    for (let i = 0; i < snaps.length; i++) if (snaps[i]!.monoMs <= t0) from = i;
    const inWindow = snaps.slice(from);
    const first = inWindow[0] ?? null;
    const last = inWindow[inWindow.length - 1] ?? null;
    const two = first !== null && last !== null && last !== first;
    let series: ServerSample[] = snaps.map((s) => ({
      t: Math.round((s.monoMs - t0) * 1000) / 1000,
      running: s.concepts.requestsRunning,
      waiting: s.concepts.requestsWaiting,
      kvCacheUsage: s.concepts.kvCacheUsage,
    }));
    if (series.length > MAX_SERIES) {
      const step = Math.ceil(series.length / MAX_SERIES);
      series = series.filter((_, i) => i % step === 0 || i === series.length - 1);
    }
    const st = this.scraper.state;
    const url = redactUrlString(this.scraper.url.href.replace(/\/\/[^@/]*@/, '//'));
    return {
      source: this.target.prometheus ? 'prometheus' : 'scrape',
      url,
      selector: this.scraper.selector,
      profile: this.profile.id,
      profileName: this.profile.label,
      model: this.model,
      scrapes: snaps.length,
      failures: st.failures,
      lastError:
        snaps.length === 0
          ? (this.lastError ?? 'no scrape succeeded')
          : st.failures > 0
            ? this.lastError
            : null,
      window: two ? { fromMs: first.monoMs - t0, toMs: last.monoMs - t0 } : null,
      peak: {
        running: peak(inWindow, (c) => c.requestsRunning),
        waiting: peak(inWindow, (c) => c.requestsWaiting),
        kvCacheUsage: peak(inWindow, (c) => c.kvCacheUsage),
      },
      delta: {
        generationTokens: two ? increase(inWindow, (c) => c.generationTokensTotal) : null,
        promptTokens: two ? increase(inWindow, (c) => c.promptTokensTotal) : null,
        preemptions: two ? increase(inWindow, (c) => c.preemptionsTotal) : null,
      },
      prefixCache: two ? serverPrefixCache(inWindow) : null,
      // Over every scrape, not first-to-last: a server restart mid-run keeps what came before it.
      ttft: two ? histStats(inWindow, (c) => c.ttftHistogram) : null,
      queueTime: two ? histStats(inWindow, (c) => c.queueTimeHistogram) : null,
      e2e: two ? histStats(inWindow, (c) => c.e2eHistogram) : null,
      itl: two ? histStats(inWindow, (c) => c.itlHistogram) : null,
      series,
      specDecode: specDecodeWindow(inWindow.map((s) => ({ t: s.monoMs, spec: s.spec ?? null }))),
      ...this.energy(t0, outputTokens),
      ...this.roleSummaries(t0, url, st.failures),
    };
  }

  /** Stops everything without a summary (the run failed before it began). */
  stop(): void {
    this.scraper.stop();
    this.telemetry?.stop();
    this.roles?.stop();
  }
}
