/**
 * Scrapes the /metrics of the targets the UI watches and sends each scrape to the UI: the
 * detected profile, the mapped concepts, rates since the previous scrape, and every series for
 * the explorer. Failures are sent as state (with backoff), never hidden.
 */
import { readSpecDecode } from '../../shared/metrics/spec-decode.ts';
import { createHash } from 'node:crypto';
import type { MetricsState, ExplorerSeries, TelemetryScrape } from '../../shared/metrics-api.ts';
import { conceptRates, extractConcepts, type ConceptSnapshot } from '../../shared/metrics/concepts.ts';
import type { ParseResult } from '../../shared/metrics/prom-types.ts';
import { Scraper, type ScrapeResult, type ScrapeState, type ScrapeTarget } from '../metrics/scraper.ts';
import { TelemetrySet } from '../metrics/telemetry-set.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { redactUrlString } from '../../shared/redact.ts';
import type { Emit } from './emit.ts';
import { errorMessage } from '../../shared/result.ts';

const EXPLORER_MAX = 5000;

/** The events a metrics service sends. */
export type MetricsEmit = Emit<'onMetricsScrape' | 'onMetricsState'>;

interface Watched {
  scraper: Scraper;
  /** The target's telemetry endpoints, read on each server scrape's tick (null: none listed). */
  telemetry: TelemetrySet | null;
  prev: ConceptSnapshot | null;
  /** What the scraper was built from (URLs, headers, key, TLS): an edited target restarts it. */
  config: string;
}

/** A digest of everything a scraper is built from; compared, never shown (it covers the API key). */
function configOf(t: ResolvedTarget): string {
  const headers = Object.entries(t.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const raw = JSON.stringify([
    t.baseUrl,
    t.metricsUrl ?? null,
    t.telemetryUrls ?? [],
    headers,
    t.apiKey ?? null,
    t.insecureTls,
    t.prometheusUrl ?? null,
    t.prometheusSelector ?? null,
    t.metricsIntervalMs ?? null,
    t.metricsTimeoutMs ?? null,
  ]);
  return createHash('sha256').update(raw).digest('hex');
}

function labelsText(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  return keys.length ? `{${keys.map((k) => `${k}="${labels[k]}"`).join(',')}}` : '';
}

function explorerSeries(parsed: ParseResult): {
  series: ExplorerSeries[];
  truncated: boolean;
  help: Record<string, string>;
} {
  const out: ExplorerSeries[] = [];
  const help: Record<string, string> = {};
  let truncated = false;
  for (const f of parsed.families) {
    if (f.help) help[f.name] = f.help;
    if (f.histograms && f.histograms.length > 0) {
      for (const h of f.histograms) {
        if (out.length >= EXPLORER_MAX) truncated = true;
        else {
          const l = labelsText(h.labels);
          out.push({
            key: f.name + l,
            family: f.name,
            type: f.type,
            labels: l,
            value: h.count,
            buckets: h.buckets,
            sum: h.sum,
          });
        }
      }
      continue;
    }
    for (const s of f.samples) {
      if (out.length >= EXPLORER_MAX) {
        truncated = true;
        break;
      }
      const l = labelsText(s.labels);
      out.push({ key: s.name + l, family: f.name, type: f.type, labels: l, value: s.value });
    }
  }
  return { series: out, truncated, help };
}

/**
 * Where a target's server metrics are read, and how: its /metrics (with its headers and key) or
 * a Prometheus server with its selector (a Prometheus source is another server: the target's
 * headers and API key are not sent to it).
 */
export function scrapeTargetOf(t: ResolvedTarget): ScrapeTarget {
  if (t.prometheusUrl !== undefined)
    return {
      url: t.prometheusUrl,
      prometheus: { selector: t.prometheusSelector ?? '' },
      insecureTls: t.insecureTls,
      intervalMs: t.metricsIntervalMs ?? 1000,
      timeoutMs: t.metricsTimeoutMs,
    };
  const headers = { ...t.headers };
  if (t.apiKey) headers.authorization = `Bearer ${t.apiKey}`;
  return {
    url: t.baseUrl,
    metricsPath: t.metricsUrl,
    headers,
    insecureTls: t.insecureTls,
    intervalMs: t.metricsIntervalMs ?? 1000,
    timeoutMs: t.metricsTimeoutMs,
  };
}

export class MetricsService {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly emit: MetricsEmit,
    private readonly resolve: (id: string) => ResolvedTarget | null,
  ) {}

  watch(ids: string[]): MetricsState[] {
    const want = new Set(ids);
    for (const [id, w] of this.watched) {
      if (!want.has(id)) {
        w.scraper.stop();
        w.telemetry?.stop();
        this.watched.delete(id);
      }
    }
    for (const id of want) {
      const t = this.resolve(id);
      const running = this.watched.get(id);
      if (running) {
        // Still the same target as when its scraper was built: keep it (and its rates' history).
        if (t && configOf(t) === running.config) continue;
        // Edited (URL, metrics URL, headers, key) or deleted since: that scraper is stale. A
        // deleted target's stop is reported; an edited one's new scraper reports its own state.
        running.scraper.stop();
        running.telemetry?.stop();
        this.watched.delete(id);
      }
      if (!t) continue;
      const source = scrapeTargetOf(t);
      let scraper: Scraper;
      // Events of a replaced scraper (a scrape in flight when it stopped) are not this target's any more.
      const current = () => this.watched.get(id)?.scraper === scraper;
      try {
        scraper = new Scraper(source, {
          onScrape: (r) => {
            if (current()) this.onScrape(id, r);
          },
          onState: (s) => {
            if (current()) this.emit('onMetricsState', this.stateOf(id, s));
          },
        });
      } catch (e) {
        // Can never work (a hand-edited targets file: bad URL or selector). Said, not hidden.
        this.emit('onMetricsState', {
          targetId: id,
          url: redactUrlString(source.url),
          source: source.prometheus ? 'prometheus' : 'scrape',
          status: 'failing',
          lastError: { kind: 'client', code: 'invalid-request', message: errorMessage(e) },
          consecutiveFailures: 1,
          nextAttemptInMs: null,
          profile: null,
        });
        continue;
      }
      const telemetry = t.telemetryUrls?.length
        ? new TelemetrySet(t.telemetryUrls, { insecureTls: t.insecureTls, timeoutMs: t.metricsTimeoutMs })
        : null;
      this.watched.set(id, { scraper, telemetry, prev: null, config: configOf(t) });
      scraper.start();
    }
    return [...this.watched.keys()].map((id) => this.stateOf(id, this.watched.get(id)!.scraper.state));
  }

  /** Targets were edited: rebuild the scrapers whose target changed, stop those of deleted ones. */
  refresh(): void {
    if (this.watched.size > 0) this.watch([...this.watched.keys()]);
  }

  dispose(): void {
    for (const w of this.watched.values()) {
      w.scraper.stop();
      w.telemetry?.stop();
    }
    this.watched.clear();
  }

  private stateOf(id: string, s: Readonly<ScrapeState>): MetricsState {
    const w = this.watched.get(id);
    return {
      targetId: id,
      // Shown in the UI: a metrics URL's credentials stay in the core (target-url-secrets.ts).
      url: redactUrlString(w?.scraper.url.toString() ?? ''),
      source: w?.scraper.selector != null ? 'prometheus' : 'scrape',
      ...(w?.scraper.selector != null ? { selector: w.scraper.selector } : {}),
      status: s.status,
      lastError: s.lastError
        ? {
            kind: s.lastError.kind,
            code: s.lastError.code,
            message: s.lastError.message,
            status: s.lastError.status,
          }
        : null,
      consecutiveFailures: s.consecutiveFailures,
      nextAttemptInMs: s.nextAttemptAt === null ? null : Math.max(0, s.nextAttemptAt - performance.now()),
      profile: s.profile?.id ?? null,
      ...(s.clockSkewMs !== null ? { clockSkewMs: s.clockSkewMs } : {}),
    };
  }

  private onScrape(id: string, r: ScrapeResult): void {
    const w = this.watched.get(id);
    if (!w) return;
    if (w.telemetry === null) return this.send(id, w, r, undefined);
    // The telemetry endpoints on the same tick: the server's scrape waits for them (bounded by
    // their timeout) and both travel in one message, dated by the server's scrape.
    void w.telemetry.scrapeAll().then((telemetry) => {
      if (this.watched.get(id) === w) this.send(id, w, r, telemetry);
    });
  }

  private send(id: string, w: Watched, r: ScrapeResult, telemetry: TelemetryScrape[] | undefined): void {
    const concepts = extractConcepts(r.parsed, r.profile);
    const snap: ConceptSnapshot = { tMs: r.monoMs, concepts };
    const rates = w.prev ? conceptRates(w.prev, snap) : null;
    w.prev = snap;
    const ex = explorerSeries(r.parsed);
    let series = 0;
    for (const f of r.parsed.families)
      series += f.histograms?.length ? f.histograms.length : f.samples.length;
    this.emit('onMetricsScrape', {
      targetId: id,
      wallMs: performance.timeOrigin + r.monoMs,
      durationMs: r.durationMs,
      bytes: r.bytes,
      profile: r.profile.id,
      profileName: r.profile.label,
      concepts,
      rates: rates
        ? {
            promptTokensPerSec: rates.promptTokensPerSec,
            generationTokensPerSec: rates.generationTokensPerSec,
            preemptionsPerSec: rates.preemptionsPerSec,
            prefixCacheHitRate: rates.prefixCacheHitRate,
          }
        : null,
      families: r.parsed.families.length,
      series,
      parseErrors: r.parsed.errors.slice(0, 50).map((e) => ({ line: e.line, message: e.message })),
      explorer: ex.series,
      explorerTruncated: ex.truncated,
      help: ex.help,
      specDecode: readSpecDecode(r.parsed),
      ...(telemetry ? { telemetry } : {}),
    });
  }
}
