/**
 * Fleet source (docs/ARCHITECTURE.md "Server metrics"): the common concepts of many servers from one
 * Prometheus server's HTTP API instead of scraping each /metrics ourselves. A target is a label
 * selector (`{job="vllm",instance="10.0.0.1:8000"}`); the profile is detected from the metric
 * names Prometheus holds for it, or given. Results are one (t seconds, value) series per concept.
 * Never throws for I/O: failures are values with a kind (network / http / protocol / client).
 */
import { errorMessage, type Result } from '../../shared/result.ts';
import type { MetricFamily } from '../../shared/metrics/prom-types.ts';
import { detectProfileId, type ProfileId } from '../../shared/metrics/profiles.ts';
import { fetchMetrics, type MetricsFetcher } from './fetch-metrics.ts';
import {
  parseQueryResponse,
  promErrorFromBody,
  type ApiPoint,
  type PromApiError,
  type QueryData,
} from './prom-api-json.ts';
import { detectionQuery, fleetQueries, parseSelector, type FleetConcept } from './promql.ts';

export type { QueryData } from './prom-api-json.ts';
export type PromResult<T> = Result<T, PromApiError>;

export interface PromApiOptions {
  /** The Prometheus server, e.g. `http://prom:9090` or behind a prefix `https://h/prometheus`. */
  url: string;
  /** Extra headers (Authorization for a proxy in front of Prometheus). */
  headers?: Record<string, string>;
  /** Per query. Default 15000. */
  timeoutMs?: number;
  insecureTls?: boolean;
  /** Default 64 MiB: a long range at a fine step is big. */
  maxBodyBytes?: number;
}

export class PromApiClient {
  private readonly base: URL;

  /** Throws a TypeError for a URL that can never work. */
  constructor(
    readonly options: PromApiOptions,
    private readonly fetch: MetricsFetcher = fetchMetrics,
  ) {
    const u = new URL(options.url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new TypeError(`Not an http(s) URL: ${options.url}`);
    // Keep a path prefix (reverse proxies): `api/v1/...` resolves against a base ending in '/'.
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    u.search = '';
    u.hash = '';
    this.base = u;
  }

  /** `/api/v1/query`: the value of `query` at `timeSec` (default: the server's now). */
  query(query: string, timeSec?: number, signal?: AbortSignal): Promise<PromResult<QueryData>> {
    const params: Record<string, string> = { query };
    if (timeSec !== undefined) params.time = String(timeSec);
    return this.get('api/v1/query', params, signal);
  }

  /** `/api/v1/query_range`: `query` evaluated every `stepSec` over [startSec, endSec]. */
  queryRange(
    query: string,
    startSec: number,
    endSec: number,
    stepSec: number,
  ): Promise<PromResult<QueryData>> {
    return this.get('api/v1/query_range', {
      query,
      start: String(startSec),
      end: String(endSec),
      step: String(stepSec),
    });
  }

  private async get(
    path: string,
    params: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<PromResult<QueryData>> {
    const url = new URL(path, this.base);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const r = await this.fetch(url, {
      headers: { ...(this.options.headers ?? {}), accept: 'application/json' },
      timeoutMs: this.options.timeoutMs ?? 15_000,
      insecureTls: this.options.insecureTls === true,
      maxBodyBytes: this.options.maxBodyBytes ?? 64 * 1024 * 1024,
      signal,
    });
    if (!r.ok) {
      const e = r.error;
      // A non-2xx with Prometheus' error JSON says why (bad_data: the query itself is wrong).
      const prom =
        e.kind === 'http' && e.body !== undefined ? promErrorFromBody(e.status ?? 0, e.body) : null;
      return { ok: false, error: prom ?? e };
    }
    return parseQueryResponse(r.value.status, r.value.body, r.value.contentType);
  }
}

export interface FleetTarget {
  /** Label matchers of the servers to aggregate: `{job="vllm",instance="10.0.0.1:8000"}`. */
  selector: string;
  /** Skip detection and use this profile. */
  profile?: ProfileId;
  /** rate() / histogram window, a PromQL duration. Default '1m'. */
  window?: string;
  model?: string;
}

/** @internal exported for its tests */
export interface FleetSeries {
  query: string;
  /** Empty when Prometheus has no data for it in the range. */
  points: ApiPoint[];
}

export interface FleetResult {
  profile: ProfileId;
  /** Per concept the profile maps: its series, or why its query failed. */
  concepts: Partial<Record<FleetConcept, FleetSeries | { query: string; error: PromApiError }>>;
  warnings: string[];
}

/**
 * The profile of a target from the names Prometheus holds for it (same rules as a direct
 * scrape). Also says whether the names were stored with `:` rewritten to `_` (OpenMetrics).
 * @internal exported for its tests
 */
export async function detectFleetProfile(
  client: PromApiClient,
  selector: string,
): Promise<PromResult<{ profile: ProfileId; mangled: boolean; names: string[] }>> {
  const matchers = parseSelector(selector);
  const r = await client.query(detectionQuery(matchers));
  if (!r.ok) return r;
  const byName = new Map<string, MetricFamily>();
  for (const s of r.value.series) {
    const { __name__: name, ...labels } = s.metric;
    if (name === undefined) continue;
    let f = byName.get(name);
    if (f === undefined) byName.set(name, (f = { name, type: 'untyped', help: '', unit: '', samples: [] }));
    f.samples.push({ name, labels, value: 1 });
  }
  const families = [...byName.values()];
  const names = families.map((f) => f.name).sort();
  const colon = names.some((n) => n.includes(':'));
  const mangled = !colon && names.some((n) => /^(vllm|sglang|llamacpp)_/.test(n));
  const profile = detectProfileId(families);
  return { ok: true, value: { profile, mangled, names } };
}

type Range = { startSec: number; endSec: number; stepSec: number };

/** The concepts of one target over a range (`/api/v1/query_range`). */
export function queryFleetRange(
  client: PromApiClient,
  target: FleetTarget,
  range: Range,
): Promise<PromResult<FleetResult>> {
  if (!(range.stepSec > 0) || !(range.endSec >= range.startSec))
    return Promise.resolve(
      invalid(`Invalid range: start ${range.startSec}, end ${range.endSec}, step ${range.stepSec}.`),
    );
  return queryFleet(client, target, (q) => client.queryRange(q, range.startSec, range.endSec, range.stepSec));
}

function invalid(message: string): { ok: false; error: PromApiError } {
  return { ok: false, error: { kind: 'client', code: 'invalid-request', message } };
}

/** At most this many queries in flight per target: ~26 concepts must not hammer a shared Prometheus. */
const CONCURRENCY = 6;

async function queryFleet(
  client: PromApiClient,
  target: FleetTarget,
  run: (q: string) => Promise<PromResult<QueryData>>,
): Promise<PromResult<FleetResult>> {
  let queries: Partial<Record<FleetConcept, string>>;
  let profile = target.profile;
  let mangled = false;
  try {
    const matchers = parseSelector(target.selector);
    if (profile === undefined) {
      const d = await detectFleetProfile(client, target.selector);
      if (!d.ok) return d;
      ({ profile, mangled } = d.value);
    }
    queries = fleetQueries(profile, { matchers, window: target.window, model: target.model, mangled });
  } catch (e) {
    return invalid(errorMessage(e));
  }
  const entries = Object.entries(queries) as [FleetConcept, string][];
  const results: (PromResult<QueryData> | undefined)[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const i = next++;
      results[i] = await run((entries[i] as [FleetConcept, string])[1]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, entries.length) }, worker));
  const out: FleetResult = { profile, concepts: {}, warnings: [] };
  let failures = 0;
  entries.forEach(([concept, query], i) => {
    const r = results[i] as PromResult<QueryData>;
    if (!r.ok) {
      failures++;
      out.concepts[concept] = { query, error: r.error };
      return;
    }
    for (const w of r.value.warnings) if (!out.warnings.includes(w)) out.warnings.push(w);
    // Every query aggregates to one label-less series; none means no data in the range.
    out.concepts[concept] = { query, points: r.value.series[0]?.points ?? [] };
  });
  // All failed: the endpoint, not a concept, is the problem (down, auth, not Prometheus).
  if (entries.length > 0 && failures === entries.length) {
    const first = results[0] as { ok: false; error: PromApiError };
    return { ok: false, error: first.error };
  }
  return { ok: true, value: out };
}
