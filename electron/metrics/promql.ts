/**
 * PromQL for the common concepts (docs/ARCHITECTURE.md "Server metrics", test-corpus/FORMATS.md §5), built from the
 * same server profiles the direct scraper uses, so a fleet behind Prometheus shows the same
 * numbers as a scraped target:
 * - gauges as `sum(x{sel})` (fractions as `avg`), counters as `sum(x{sel})` and
 *   `sum(rate(x{sel}[w]))`;
 * - histograms as `histogram_quantile(q, sum by (le) (rate(x_bucket{sel}[w])))` and the window
 *   mean `sum(rate(x_sum[w])) / sum(rate(x_count[w]))`.
 * Every query aggregates to one label-less series, so a profile's alternatives (renamed metrics)
 * combine with `or`: the first that has data wins, as in extractConcepts.
 */
import {
  PROFILES,
  type Expr,
  type HistogramConcept,
  type HistogramSource,
  type ProfileId,
  type ScalarConcept,
  type ServerProfile,
} from '../../shared/metrics/profiles.ts';
import type { Matcher } from '../../shared/metrics/prom-selector.ts';

export { parseSelector, type Matcher } from '../../shared/metrics/prom-selector.ts';

type FleetGauge = 'requestsRunning' | 'requestsWaiting' | 'kvCacheUsage';
type FleetTotal = 'promptTokensTotal' | 'generationTokensTotal' | 'preemptionsTotal';
type FleetRate =
  | 'promptTokensPerSec'
  | 'generationTokensPerSec'
  | 'preemptionsPerSec'
  /** 0–1 over the window: rate(hits)/rate(queries) where the server counts them, else its gauge. */
  | 'prefixCacheHitRate';
type FleetHistStat = 'P50' | 'P90' | 'P99' | 'Mean';
type FleetHistName = 'ttft' | 'itl' | 'e2e' | 'queueTime';
/** Seconds, over the rate window. */
type FleetHist = `${FleetHistName}${FleetHistStat}`;
export type FleetConcept = FleetGauge | FleetTotal | FleetRate | FleetHist;

const GAUGES: readonly FleetGauge[] = ['requestsRunning', 'requestsWaiting', 'kvCacheUsage'];
const COUNTERS: readonly (readonly [FleetTotal, FleetRate])[] = [
  ['promptTokensTotal', 'promptTokensPerSec'],
  ['generationTokensTotal', 'generationTokensPerSec'],
  ['preemptionsTotal', 'preemptionsPerSec'],
];
const HISTS: readonly (readonly [HistogramConcept, FleetHistName])[] = [
  ['ttftHistogram', 'ttft'],
  ['itlHistogram', 'itl'],
  ['e2eHistogram', 'e2e'],
  ['queueTimeHistogram', 'queueTime'],
];
const QUANTILES: readonly (readonly [FleetHistStat, number])[] = [
  ['P50', 0.5],
  ['P90', 0.9],
  ['P99', 0.99],
];

export interface FleetQueryOptions {
  /** Label matchers of the target (parseSelector). */
  matchers: readonly Matcher[];
  /** Range of rate() and histogram windows, a PromQL duration. Default '1m'. */
  window?: string;
  /** Only this model (profile's model label); ignored for servers without one (TGI, llama.cpp). */
  model?: string;
  /** Prometheus ingested OpenMetrics that rewrote `:` to `_` (test-corpus/FORMATS.md §3.2). */
  mangled?: boolean;
}

interface Ctx {
  sel: string[];
  window: string;
  mangled: boolean;
}

const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;

/** A PromQL string literal (Go-style escapes), for values we put into queries ourselves. @internal exported for its tests */
export function promString(v: string): string {
  return JSON.stringify(v);
}

function vector(ctx: Ctx, name: string, match?: Record<string, string>): string {
  const extra = Object.entries(match ?? {}).map(([k, v]) => `${k}=${promString(v)}`);
  const all = [...extra, ...ctx.sel];
  const n = ctx.mangled ? name.replace(/:/g, '_') : name;
  return all.length === 0 ? n : `${n}{${all.join(',')}}`;
}

/** `(a) or (b)`: `or` binds loosest, so each alternative is parenthesised. */
function firstOf(alts: readonly string[]): string | null {
  if (alts.length === 0) return null;
  return alts.length === 1 ? (alts[0] as string) : alts.map((a) => `(${a})`).join(' or ');
}

function exprQL(e: Expr, ctx: Ctx, rate: boolean): string {
  if (e.op === 'ratio') return `(${exprQL(e.num, ctx, rate)}) / (${exprQL(e.den, ctx, rate)})`;
  if (e.op === 'sum') {
    const parts = e.parts.map((p) => `(${exprQL(p, ctx, rate)})`);
    // An optional part may not exist on older builds: `or vector(0)` keeps the sum from vanishing.
    const opt = e.optional.map((p) => `(${exprQL(p, ctx, rate)} or vector(0))`);
    return [...parts, ...opt].join(' + ');
  }
  let x = vector(ctx, e.name, e.match);
  if (rate) x = `rate(${x}[${ctx.window}])`;
  if (e.scale !== 1) x = `${x} * ${e.scale}`;
  // Filter before aggregating, as extractConcepts skips values below validMin (vLLM V0's -1).
  if (e.validMin !== undefined) x = `${x} >= ${e.validMin}`;
  return `${e.agg === 'mean' ? 'avg' : 'sum'}(${x})`;
}

function scalarQL(p: ServerProfile, c: ScalarConcept, ctx: Ctx, rate: boolean): string | null {
  return firstOf((p.scalars[c] ?? []).map((e) => exprQL(e, ctx, rate)));
}

function histQL(srcs: readonly HistogramSource[], ctx: Ctx, stat: FleetHistStat, q: number): string | null {
  const alts = srcs.map((src) => {
    const scale = src.scale === 1 ? '' : ` * ${src.scale}`;
    const r = (suffix: string): string => `rate(${vector(ctx, src.name + suffix)}[${ctx.window}])`;
    if (stat === 'Mean') return `sum(${r('_sum')})${scale} / sum(${r('_count')})`;
    return `histogram_quantile(${q}, sum by (le) (${r('_bucket')}))${scale}`;
  });
  return firstOf(alts);
}

/** The PromQL of every concept the profile maps (absent keys: the server has no such metric). */
export function fleetQueries(
  profile: ProfileId | ServerProfile,
  opts: FleetQueryOptions,
): Partial<Record<FleetConcept, string>> {
  const p = typeof profile === 'string' ? PROFILES[profile] : profile;
  const window = opts.window ?? '1m';
  if (!DURATION.test(window))
    throw new TypeError(`Window "${window}" is not a PromQL duration (e.g. 30s, 1m, 5m).`);
  const sel = opts.matchers.map((m) => `${m.label}${m.op}${m.quoted}`);
  if (opts.model !== undefined && p.modelLabel !== null)
    sel.push(`${p.modelLabel}=${promString(opts.model)}`);
  const ctx: Ctx = { sel, window, mangled: opts.mangled === true };
  const out: Partial<Record<FleetConcept, string>> = {};
  const put = (k: FleetConcept, q: string | null): void => {
    if (q !== null) out[k] = q;
  };
  for (const g of GAUGES) put(g, scalarQL(p, g, ctx, false));
  for (const [total, rate] of COUNTERS) {
    put(total, scalarQL(p, total, ctx, false));
    put(rate, scalarQL(p, total, ctx, true));
  }
  const hits = scalarQL(p, 'prefixCacheHitsTotal', ctx, true);
  const queries = scalarQL(p, 'prefixCacheQueriesTotal', ctx, true);
  put(
    'prefixCacheHitRate',
    firstOf([
      ...(hits !== null && queries !== null ? [`(${hits}) / (${queries})`] : []),
      ...(p.scalars.prefixCacheHitRate ?? []).map((e) => exprQL(e, ctx, false)),
    ]),
  );
  for (const [concept, name] of HISTS) {
    const srcs = p.histograms[concept] ?? [];
    for (const [stat, q] of QUANTILES) put(`${name}${stat}`, histQL(srcs, ctx, stat, q));
    put(`${name}Mean`, histQL(srcs, ctx, 'Mean', NaN));
  }
  return out;
}

/**
 * The query that lists which metric names a target exposes (for profile detection): only the
 * inference-server prefixes, so the answer stays small even for targets with thousands of names.
 */
export function detectionQuery(matchers: readonly Matcher[]): string {
  const sel = [
    '__name__=~"(vllm|sglang|llamacpp)[:_].+|tgi_.+|nv_inference_.+|nv_trt_llm_.+"',
    ...matchers.map((m) => `${m.label}${m.op}${m.quoted}`),
  ];
  return `count by (__name__, engine) ({${sel.join(',')}})`;
}
