/**
 * Common concepts (running, waiting, KV usage, token counters, server-side latency histograms)
 * from one parsed scrape, through a server profile; and rates between two such snapshots.
 */
import type { Labels, MetricFamily, ParseResult, Sample } from './prom-types.ts';
import {
  counterRate,
  histogramDelta,
  mergeHistograms,
  scaleHistogram,
  type HistogramData,
  type HistogramDelta,
} from './prom-math.ts';
import {
  HISTOGRAM_CONCEPTS,
  SCALAR_CONCEPTS,
  type Expr,
  type HistogramConcept,
  type ScalarConcept,
  type ServerProfile,
} from './profiles.ts';

export type Concepts = { [K in ScalarConcept]: number | null } & {
  [K in HistogramConcept]: HistogramData | null;
};

export interface ExtractOptions {
  /** Only this model (matched on the profile's model label: `model_name`, Triton's `model`). */
  model?: string;
  /** Only samples whose labels match these. A sample without the label is kept (TGI has none). */
  labels?: Labels;
}

interface Index {
  samples: Map<string, Sample[]>;
  families: Map<string, MetricFamily>;
}
const indexes = new WeakMap<object, Index>();
const mangle = (name: string): string => name.replace(/:/g, '_');

/** Sample and family lookup by name (also by the `:`→`_` mangled spelling); cached per parse. */
function indexOf(parsed: ParseResult): Index {
  const hit = indexes.get(parsed);
  if (hit !== undefined) return hit;
  const samples = new Map<string, Sample[]>();
  const families = new Map<string, MetricFamily>();
  for (const f of parsed.families) {
    families.set(f.name, f);
    for (const s of f.samples) {
      let list = samples.get(s.name);
      if (list === undefined) samples.set(s.name, (list = []));
      list.push(s);
    }
  }
  const idx = { samples, families };
  indexes.set(parsed, idx);
  return idx;
}

function matches(labels: Labels, want: Labels | undefined, lenient: boolean): boolean {
  if (want === undefined) return true;
  for (const k of Object.keys(want)) {
    const v = labels[k];
    if (v === undefined ? !lenient : v !== want[k]) return false;
  }
  return true;
}

function evalExpr(e: Expr, idx: Index, filter: Labels | undefined): number | null {
  if (e.op === 'ratio') {
    const n = evalExpr(e.num, idx, filter);
    const d = evalExpr(e.den, idx, filter);
    return n === null || d === null || d === 0 ? null : n / d;
  }
  if (e.op === 'sum') {
    let total = 0;
    for (const p of e.parts) {
      const v = evalExpr(p, idx, filter);
      if (v === null) return null;
      total += v;
    }
    for (const p of e.optional) total += evalExpr(p, idx, filter) ?? 0;
    return total;
  }
  const list = idx.samples.get(e.name) ?? idx.samples.get(mangle(e.name));
  if (list === undefined) return null;
  let sum = 0;
  let n = 0;
  for (const s of list) {
    if (!matches(s.labels, e.match, false) || !matches(s.labels, filter, true)) continue;
    const v = s.value * e.scale;
    if (Number.isNaN(v) || (e.validMin !== undefined && v < e.validMin)) continue;
    sum += v;
    n++;
  }
  if (n === 0) return null;
  return e.agg === 'mean' ? sum / n : sum;
}

/**
 * The profile's concepts from one scrape. Counters and gauges of several label sets (engines,
 * models, data-parallel ranks) are summed; fractions are averaged; histograms are merged
 * bucket-wise and converted to seconds. A concept the server does not expose is null.
 */
export function extractConcepts(
  parsed: ParseResult,
  profile: ServerProfile,
  opts: ExtractOptions = {},
): Concepts {
  const idx = indexOf(parsed);
  let filter: Labels | undefined = opts.labels;
  if (opts.model !== undefined) filter = { ...filter, [profile.modelLabel ?? 'model_name']: opts.model };
  const out = {} as Concepts;
  for (const c of SCALAR_CONCEPTS) {
    let v: number | null = null;
    for (const alt of profile.scalars[c] ?? []) if ((v = evalExpr(alt, idx, filter)) !== null) break;
    out[c] = v;
  }
  for (const c of HISTOGRAM_CONCEPTS) {
    let h: HistogramData | null = null;
    for (const src of profile.histograms[c] ?? []) {
      const fam = idx.families.get(src.name) ?? idx.families.get(mangle(src.name));
      const series = (fam?.histograms ?? []).filter(
        (s) => matches(s.labels, src.match, false) && matches(s.labels, filter, true),
      );
      const merged = mergeHistograms(series);
      if (merged !== null) {
        h = scaleHistogram(merged, src.scale);
        break;
      }
    }
    out[c] = h;
  }
  return out;
}

export interface ConceptSnapshot {
  /** Milliseconds (monotonic) when the scrape was taken. */
  tMs: number;
  concepts: Concepts;
}

export interface ConceptRates {
  promptTokensPerSec: number | null;
  generationTokensPerSec: number | null;
  preemptionsPerSec: number | null;
  /** Over the interval from hits/queries deltas when the server has them, else its gauge. */
  prefixCacheHitRate: number | null;
  ttft: HistogramDelta | null;
  itl: HistogramDelta | null;
  e2e: HistogramDelta | null;
  queueTime: HistogramDelta | null;
}

function rate(prev: ConceptSnapshot, curr: ConceptSnapshot, c: ScalarConcept): number | null {
  const a = prev.concepts[c];
  const b = curr.concepts[c];
  if (a === null || b === null) return null;
  const r = counterRate([
    { t: prev.tMs, v: a },
    { t: curr.tMs, v: b },
  ]);
  return Number.isNaN(r) ? null : r;
}

function delta(prev: ConceptSnapshot, curr: ConceptSnapshot, c: HistogramConcept): HistogramDelta | null {
  const a = prev.concepts[c];
  const b = curr.concepts[c];
  return a === null || b === null ? null : histogramDelta(a, b);
}

/** Rates and histogram deltas between two snapshots of one target (counter resets handled). */
export function conceptRates(prev: ConceptSnapshot, curr: ConceptSnapshot): ConceptRates {
  const hits = rate(prev, curr, 'prefixCacheHitsTotal');
  const queries = rate(prev, curr, 'prefixCacheQueriesTotal');
  const hitRate =
    hits !== null && queries !== null && queries > 0 ? hits / queries : curr.concepts.prefixCacheHitRate;
  return {
    promptTokensPerSec: rate(prev, curr, 'promptTokensTotal'),
    generationTokensPerSec: rate(prev, curr, 'generationTokensTotal'),
    preemptionsPerSec: rate(prev, curr, 'preemptionsTotal'),
    prefixCacheHitRate: hitRate,
    ttft: delta(prev, curr, 'ttftHistogram'),
    itl: delta(prev, curr, 'itlHistogram'),
    e2e: delta(prev, curr, 'e2eHistogram'),
    queueTime: delta(prev, curr, 'queueTimeHistogram'),
  };
}
