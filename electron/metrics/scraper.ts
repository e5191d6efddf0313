/**
 * Scrapes one target's /metrics on an interval (docs/ARCHITECTURE.md "Server metrics"). Failures are kept
 * and reported (state, last error, consecutive failures, next attempt) and retried with
 * exponential backoff; the loop never throws. Each success is parsed, its server profile
 * detected, and handed to `onScrape` with a monotonic timestamp for rate math.
 */
import type { RequestError } from '../../shared/errors.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import type { ParseResult } from '../../shared/metrics/prom-types.ts';
import { detectProfile, PROFILES, type ServerProfile } from '../../shared/metrics/profiles.ts';
import { parseSelector, selectorText, type Matcher } from '../../shared/metrics/prom-selector.ts';
import { fetchMetrics, type MetricsFetcher } from './fetch-metrics.ts';
import { PromApiClient } from './prom-api.ts';
import { snapshotExposition, snapshotQuery } from './prom-snapshot.ts';
import { redactUrlString } from '../../shared/redact.ts';
import { errorMessage } from '../../shared/result.ts';

export type ScrapeError = RequestError;

export interface ScrapeTarget {
  /** A base URL (`http://host:8000`, `.../v1`) or the metrics URL itself (ends with `/metrics`). */
  url: string;
  /** Override: a path on the same origin (`/prom`) or an absolute URL (Triton: `http://host:8002/metrics`). */
  metricsPath?: string;
  /** Extra request headers (Authorization). */
  headers?: Record<string, string>;
  /** Default 1000. */
  intervalMs?: number;
  /** Default: the interval, at least 1000 and at most 10000. */
  timeoutMs?: number;
  /** Ceiling of the backoff delay. Default 30000. */
  maxBackoffMs?: number;
  insecureTls?: boolean;
  /** Default 32 MiB. */
  maxBodyBytes?: number;
  /**
   * Read the metrics from a Prometheus server instead (prom-snapshot.ts): `url` is then that
   * server (`http://prom:9090`, or behind a path prefix) and `selector` picks the series of this
   * target's servers (`{job="vllm"}`). `metricsPath` is ignored.
   */
  prometheus?: { selector: string };
}

export interface ScrapeState {
  status: 'idle' | 'ok' | 'failing';
  lastError: ScrapeError | null;
  consecutiveFailures: number;
  /** performance.now() of the next scheduled attempt; null when stopped. */
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastSuccessAt: number | null;
  profile: ServerProfile | null;
  scrapes: number;
  failures: number;
  /** Prometheus source: its clock minus ours (ms), as last measured; null until then. */
  clockSkewMs: number | null;
}

export interface ScrapeResult {
  url: string;
  parsed: ParseResult;
  profile: ServerProfile;
  /** performance.now() when the response headers arrived. */
  monoMs: number;
  /** Date.now() at the same moment (a label only). */
  wallMs: number;
  /** From sending the request to the end of parsing. */
  durationMs: number;
  status: number;
  contentType: string | null;
  bytes: number;
}

export interface ScraperEvents {
  onScrape?: (r: ScrapeResult) => void;
  onState?: (s: Readonly<ScrapeState>) => void;
  /** A listener threw; the loop carries on. Defaults to console.error. */
  onListenerError?: (e: unknown) => void;
}

export interface ScraperDeps {
  fetch?: MetricsFetcher;
}

/**
 * `http://h:8000`, `http://h:8000/`, `http://h:8000/v1`, `http://h:8000/v1/chat/completions` →
 * `http://h:8000/metrics` (an OpenAI endpoint URL is what users paste); a `/metrics` URL is kept.
 * @internal exported for its tests
 */
export function deriveMetricsUrl(base: string, override?: string): URL {
  const u = new URL(base);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`Not an http(s) URL: ${base}`);
  if (override !== undefined && override !== '') {
    if (/^https?:\/\//i.test(override)) return new URL(override);
    return new URL(override.startsWith('/') ? override : '/' + override, u.origin);
  }
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/metrics')) return u;
  u.pathname = path.replace(/\/v1(\/.*)?$/, '') + '/metrics';
  u.search = '';
  u.hash = '';
  return u;
}

/** Prometheus' clock offset is measured again this often. */
const SKEW_EVERY_MS = 5 * 60_000;

export class Scraper {
  readonly url: URL;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly maxBackoffMs: number;
  private readonly fetch: MetricsFetcher;
  /** Prometheus source: the client, the selector's matchers, the last snapshot's sample time. */
  private readonly prom: {
    client: PromApiClient;
    matchers: Matcher[];
    lastMs: number;
    windowS: number;
    /** Prometheus' scrape interval for these servers, once seen; and when its last new scrape came in. */
    intervalMs: number | null;
    newAt: number;
    /** Prometheus' clock minus ours (ms), from `time()`; when it was last measured (performance.now()). */
    skewMs: number;
    skewAt: number;
  } | null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inflight: AbortController | null = null;
  private running = false;
  /** Bumped by start(): a tick from before a stop()/start() pair must not schedule a second loop. */
  private generation = 0;
  private readonly st: ScrapeState = {
    status: 'idle',
    lastError: null,
    consecutiveFailures: 0,
    nextAttemptAt: null,
    lastAttemptAt: null,
    lastSuccessAt: null,
    profile: null,
    scrapes: 0,
    failures: 0,
    clockSkewMs: null,
  };

  /** Throws only for a target that can never work (invalid URL or interval). */
  constructor(
    readonly target: ScrapeTarget,
    private readonly events: ScraperEvents = {},
    deps: ScraperDeps = {},
  ) {
    if (target.prometheus !== undefined) {
      const matchers = parseSelector(target.prometheus.selector); // a TypeError saying where
      snapshotQuery(matchers, 60); // refuses an empty selector now, not on every tick
      const client = new PromApiClient(
        {
          url: target.url,
          headers: target.headers,
          insecureTls: target.insecureTls,
          timeoutMs: target.timeoutMs ?? 10_000,
        },
        deps.fetch ?? fetchMetrics,
      );
      this.prom = {
        client,
        matchers,
        lastMs: -Infinity,
        windowS: 60,
        intervalMs: null,
        newAt: -Infinity,
        skewMs: 0,
        skewAt: -Infinity,
      };
      this.url = new URL(target.url);
    } else {
      this.prom = null;
      this.url = deriveMetricsUrl(target.url, target.metricsPath);
    }
    this.intervalMs = target.intervalMs ?? 1000;
    if (!(this.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${this.intervalMs}`);
    this.timeoutMs = target.timeoutMs ?? Math.min(10_000, Math.max(1000, this.intervalMs));
    this.maxBackoffMs = target.maxBackoffMs ?? 30_000;
    this.fetch = deps.fetch ?? fetchMetrics;
  }

  /** The Prometheus selector when this scraper reads from Prometheus, else null. */
  get selector(): string | null {
    return this.prom === null ? null : selectorText(this.prom.matchers);
  }

  get state(): Readonly<ScrapeState> {
    return { ...this.st };
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.generation++;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.inflight?.abort();
    this.inflight = null;
    this.st.nextAttemptAt = null;
    this.emitState();
  }

  /** Delay before the next attempt after `n` consecutive failures: interval·2ⁿ, capped. */
  backoffMs(n: number): number {
    return Math.min(this.maxBackoffMs, this.intervalMs * 2 ** n);
  }

  /** One scrape now, outside the schedule (also what the loop calls). Never throws. */
  async scrapeOnce(): Promise<ScrapeResult | ScrapeError | null> {
    const started = performance.now();
    this.st.lastAttemptAt = started;
    const ctl = new AbortController();
    this.inflight = ctl;
    let outcome: ScrapeResult | ScrapeError | null;
    try {
      outcome = await this.attempt(started, ctl.signal);
    } catch (e) {
      outcome = { kind: 'protocol', code: 'bad-frame', message: `Scrape failed unexpectedly: ${String(e)}` };
    }
    if (this.inflight === ctl) this.inflight = null;
    if (outcome === null) {
      // Prometheus answered but has not scraped since the last snapshot: healthy, nothing new.
      this.st.status = 'ok';
      this.st.lastError = null;
      this.st.consecutiveFailures = 0;
    } else if ('parsed' in outcome) {
      this.st.status = 'ok';
      this.st.lastError = null;
      this.st.consecutiveFailures = 0;
      this.st.lastSuccessAt = outcome.monoMs;
      this.st.scrapes++;
      this.guard(() => this.events.onScrape?.(outcome));
    } else if (!(outcome.code === 'cancelled' && ctl.signal.aborted)) {
      this.st.status = 'failing';
      this.st.lastError = outcome;
      this.st.consecutiveFailures++;
      this.st.failures++;
    }
    return outcome;
  }

  private async attempt(started: number, signal: AbortSignal): Promise<ScrapeResult | ScrapeError | null> {
    if (this.prom !== null) return this.attemptPrometheus(this.prom, started, signal);
    const r = await this.fetch(this.url, {
      headers: this.target.headers ?? {},
      timeoutMs: this.timeoutMs,
      insecureTls: this.target.insecureTls === true,
      maxBodyBytes: this.target.maxBodyBytes ?? 32 * 1024 * 1024,
      signal,
    });
    if (!r.ok) return r.error;
    const { body, contentType } = r.value;
    const parsed = parsePrometheus(body, { contentType });
    if (parsed.families.length === 0 && body.trim() !== '') {
      const looksLikeMetrics = contentType === null || /text\/plain|openmetrics/i.test(contentType);
      const first = parsed.errors[0];
      return {
        kind: 'protocol',
        code: looksLikeMetrics ? 'bad-frame' : 'content-type',
        message: looksLikeMetrics
          ? `No metrics in the response${first ? `: line ${first.line}: ${first.message}` : ''}.`
          : `Expected Prometheus text, got ${contentType}.`,
        status: r.value.status,
        body: body.slice(0, 2000),
      };
    }
    if (this.st.profile === null || this.st.profile.id === 'unknown') this.st.profile = detectProfile(parsed);
    return {
      url: redactUrlString(this.url.href),
      parsed,
      profile: this.st.profile ?? PROFILES.unknown,
      monoMs: r.value.headersAtMs,
      wallMs: r.value.wallMs,
      durationMs: performance.now() - started,
      status: r.value.status,
      contentType,
      bytes: r.value.bytes,
    };
  }

  /**
   * How far Prometheus' clock is from ours: `time()` is its "now", taken between our send and our
   * receipt, so the error is at most half the round trip. A failed or odd answer keeps the last
   * estimate (0 at first): the snapshot query itself says what is wrong.
   */
  private async measureSkew(prom: NonNullable<Scraper['prom']>, signal: AbortSignal): Promise<void> {
    const sent = performance.now();
    const r = await prom.client.query('time()', undefined, signal);
    const got = performance.now();
    prom.skewAt = got;
    const v = r.ok && r.value.resultType === 'scalar' ? r.value.series[0]?.points[0]?.v : undefined;
    if (v === undefined || !Number.isFinite(v)) return;
    prom.skewMs = v * 1000 - (performance.timeOrigin + (sent + got) / 2);
    this.st.clockSkewMs = prom.skewMs;
  }

  /** One `{selector}[window]` query; a new snapshot only when Prometheus has scraped since the last. */
  private async attemptPrometheus(
    prom: NonNullable<Scraper['prom']>,
    started: number,
    signal: AbortSignal,
  ): Promise<ScrapeResult | ScrapeError | null> {
    // Nothing new can be there before Prometheus' next scrape: a fleet's query is not free (every
    // series of every instance), so polls until 80 % of its interval are answered here.
    if (prom.intervalMs !== null && performance.now() < prom.newAt + 0.8 * prom.intervalMs) return null;
    if (performance.now() - prom.skewAt > SKEW_EVERY_MS) await this.measureSkew(prom, signal);
    const r = await prom.client.query(snapshotQuery(prom.matchers, prom.windowS), undefined, signal);
    if (!r.ok) return r.error;
    let snap;
    try {
      snap = snapshotExposition(r.value.series);
    } catch (e) {
      return { kind: 'client', code: 'invalid-request', message: errorMessage(e) };
    }
    if (snap.series === 0)
      return {
        kind: 'protocol',
        code: 'bad-frame',
        message: `Prometheus has no samples for ${selectorText(prom.matchers)} in the last ${prom.windowS} s: check the selector (job and instance labels) and that Prometheus scrapes these servers.`,
      };
    // Look back three scrape intervals: enough for the last two samples of every series (the
    // interval estimate and staleness), small enough that a 1 s scrape config is not 60 points a
    // series on every poll. Before the interval is known, a minute.
    if (snap.intervalMs !== null)
      prom.windowS = Math.min(900, Math.max(5, Math.ceil((3 * snap.intervalMs) / 1000)));
    prom.intervalMs = snap.intervalMs;
    if (!(snap.lastMs > prom.lastMs)) return null;
    prom.lastMs = snap.lastMs;
    prom.newAt = performance.now();
    const parsed = parsePrometheus(snap.text, { format: 'text' });
    if (this.st.profile === null || this.st.profile.id === 'unknown') this.st.profile = detectProfile(parsed);
    // Dated by Prometheus' scrape, moved from its clock to ours (a skewed Prometheus host would
    // otherwise shift every point against this client's requests, and a run's window), on our
    // monotonic axis.
    const wallMs = snap.lastMs - prom.skewMs;
    const monoMs = wallMs - performance.timeOrigin;
    return {
      url: redactUrlString(this.url.href),
      parsed,
      profile: this.st.profile ?? PROFILES.unknown,
      monoMs,
      wallMs,
      durationMs: performance.now() - started,
      status: 200,
      contentType: 'application/json',
      bytes: snap.text.length,
    };
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    const gen = this.generation;
    this.st.nextAttemptAt = performance.now() + delayMs;
    this.timer = setTimeout(() => void this.tick(gen), delayMs);
  }

  private async tick(gen: number): Promise<void> {
    this.timer = null;
    if (!this.running || gen !== this.generation) return;
    const started = performance.now();
    const outcome = await this.scrapeOnce();
    if (!this.running || gen !== this.generation) return;
    if (outcome === null || 'parsed' in outcome) {
      // Fixed rate: the next scrape is one interval after this one started, not after it ended.
      this.schedule(Math.max(0, started + this.intervalMs - performance.now()));
    } else {
      this.schedule(this.backoffMs(this.st.consecutiveFailures));
    }
    this.emitState();
  }

  private emitState(): void {
    const s = this.state;
    this.guard(() => this.events.onState?.(s));
  }

  private guard(f: () => void): void {
    try {
      f();
    } catch (e) {
      try {
        (this.events.onListenerError ?? ((err: unknown) => console.error('[scraper] listener threw:', err)))(
          e,
        );
      } catch {
        // The error reporter itself threw: nothing left to report to, and the loop must go on.
      }
    }
  }
}
