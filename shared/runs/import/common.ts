/**
 * What the vLLM and SGLang importers share: lenient JSON (Python's json.dumps writes bare
 * Infinity/NaN), files with several results (vLLM --append-result, SGLang JSONL), per-request
 * arrays → outcomes, and `mean_/median_/std_/pNN_<metric>_ms` keys → statistics.
 */
import { ERROR_KINDS, type ErrorKind } from '../../errors.ts';
import { summarize } from '../../stats/summary.ts';
import { STAT_METRICS, type MetricStats } from '../summary/schema.ts';
import { type RequestOutcome } from '../summary/outcome.ts';
import { toMetricStats } from '../summary/summary.ts';
import { errorMessage } from '../../result.ts';

export type Json = Record<string, unknown>;

function isJsonObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON.parse, also accepting the bare NaN / Infinity / -Infinity tokens Python writes. One regex
 * pass (strings matched whole, so a token inside a string is left alone) instead of a char-by-char
 * rebuild: linear, and the result is one flat string (a rebuilt one took ~37× the file's size).
 * @internal exported for its tests
 */
export function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (!/NaN|Infinity/.test(text)) throw e;
  }
  return JSON.parse(
    text.replace(LENIENT, (m, token: string | undefined) =>
      token === undefined ? m : token === 'NaN' ? 'null' : token === 'Infinity' ? '"inf"' : '"-inf"',
    ),
  );
}
// A string (unrolled: no backtracking over long ones), or a bare token.
const LENIENT = /"[^"\\]*(?:\\.[^"\\]*)*"|(-Infinity|Infinity|NaN)/g;

/** One object, an array of objects, or one object per line. Errors name the line. */
export function parseJsonObjects(text: string): { objects: Json[]; errors: string[] } {
  try {
    const v = parseLenientJson(text);
    if (isJsonObject(v)) return { objects: [v], errors: [] };
    if (Array.isArray(v) && v.every(isJsonObject)) return { objects: v, errors: [] };
  } catch {
    // not one JSON value: try lines
  }
  const objects: Json[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const v = parseLenientJson(line);
      if (isJsonObject(v)) objects.push(v);
      else errors.push(`line ${i + 1}: not a JSON object`);
    } catch (e) {
      errors.push(`line ${i + 1}: ${errorMessage(e)}`);
    }
  });
  return { objects, errors };
}

/** A number, a numeric string, or "inf"/"-inf" (vLLM writes request_rate "inf"). */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v === 'inf' || v === 'Infinity') return Infinity;
  if (v === '-inf' || v === '-Infinity') return -Infinity;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * A parsed array as numbers, converted in place (the parsed document is ours and large: a copy of
 * every per-request array would double an import's memory).
 */
export function numArray(v: unknown): number[] | null {
  if (!Array.isArray(v)) return null;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'number') v[i] = num(x) ?? 0;
  }
  return v as number[];
}

function nestedNumArray(v: unknown): number[][] | null {
  if (!Array.isArray(v)) return null;
  for (let i = 0; i < v.length; i++) v[i] = numArray(v[i]) ?? [];
  return v as number[][];
}

const STAT_KEY = /^(mean|median|std|max|min|p\d+(?:\.\d+)?)_(.+)_ms$/;

/** Reported `<stat>_<metric>_ms` keys, by our metric name (aliases: SGLang's e2e_latency → e2el). */
export function reportedStatKeys(
  o: Json,
  aliases: Record<string, string> = {},
): Map<string, Record<string, number>> {
  const by = new Map<string, Record<string, number>>();
  for (const [k, v] of Object.entries(o)) {
    const m = STAT_KEY.exec(k);
    const n = num(v);
    if (!m || n === null) continue;
    const metric = aliases[m[2]!] ?? m[2]!;
    const rec = by.get(metric) ?? {};
    rec[m[1]!] = n;
    by.set(metric, rec);
  }
  return by;
}

/** Aggregates as reported → MetricStats (count, and anything not reported, null). */
export function statsFromReported(r: Record<string, number> | undefined): MetricStats | null {
  if (!r || r.mean === undefined) return null;
  return {
    count: null,
    mean: r.mean,
    median: r.median ?? r.p50 ?? NaN,
    std: r.std ?? NaN,
    min: r.min ?? null,
    max: r.max ?? null,
    p90: r.p90 ?? null,
    p95: r.p95 ?? null,
    p99: r.p99 ?? null,
    p999: r['p99.9'] ?? null,
  };
}

/** The flat `<stat>_<metric>_ms` keys of one metric, as reported (renamed to our metric name). */
export function reportedFlatKeys(
  metric: string,
  r: Record<string, number> | undefined,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [stat, v] of Object.entries(r ?? {})) out[`${stat}_${metric}_ms`] = v;
  return out;
}

export interface ArrayOutcomes {
  outcomes: RequestOutcome[];
  has: { latencies: boolean; startTimes: boolean; inputLens: boolean; queueTimes: boolean };
}

/**
 * Per-request arrays (seconds, as vLLM and SGLang write them) → outcomes, or null when the file has
 * no per-request data. A request failed when its `errors` entry is non-empty (without `errors`:
 * when its output length is 0, as both tools write for failures).
 */
export function outcomesFromArrays(o: Json): ArrayOutcomes | null {
  const ttfts = numArray(o.ttfts);
  const itls = nestedNumArray(o.itls);
  const outLens = numArray(o.output_lens);
  if (!ttfts || !itls || !outLens || itls.length !== ttfts.length || outLens.length !== ttfts.length)
    return null;
  const n = ttfts.length;
  const fit = (a: number[] | null): number[] | null => (a && a.length === n ? a : null);
  const lat = fit(numArray(o.latencies));
  const st = fit(numArray(o.start_times));
  const inl = fit(numArray(o.input_lens));
  const qt = fit(numArray(o.queue_times));
  const errors = Array.isArray(o.errors) && o.errors.length === n ? o.errors : null;
  // A loop, not Math.min(...st): spreading ~130k+ arguments overflows the stack.
  let st0 = st ? Infinity : 0;
  if (st) for (const v of st) if (v < st0) st0 = v;
  const outcomes: RequestOutcome[] = [];
  for (let i = 0; i < n; i++) {
    const e = errors?.[i];
    const ok = errors ? e === null || e === undefined || e === '' : outLens[i]! > 0;
    const kind = ok ? null : errorKindOf(e);
    const N = outLens[i]!;
    const ttft = ttfts[i]! * 1000;
    const e2e = lat ? lat[i]! * 1000 : null;
    outcomes.push({
      ok,
      startMs: st ? (st[i]! - st0) * 1000 : null,
      queueMs: qt ? qt[i]! * 1000 : null,
      firstEventMs: null,
      ttftMs: ttft,
      e2eMs: e2e,
      // vLLM's TPOT: (latency − TTFT)/(N − 1), 0 for N ≤ 1 (same formula as request-stats.ts).
      tpotMs: e2e === null ? null : N > 1 ? (e2e - ttft) / (N - 1) : 0,
      itlChunkMs: toMs(itls[i]!),
      itlTokenMs: null,
      outputTokens: N,
      inputTokens: inl ? inl[i]! : null,
      tokenSource: null,
      inputTokensSource: null,
      errorKind: kind?.kind ?? null,
      errorCode: kind?.code ?? null,
    });
  }
  return { outcomes, has: { latencies: !!lat, startTimes: !!st, inputLens: !!inl, queueTimes: !!qt } };
}

/** Seconds → ms in place (the array came from the parsed file and is not used otherwise). */
function toMs(a: number[]): number[] {
  for (let k = 0; k < a.length; k++) a[k] = a[k]! * 1000;
  return a;
}

const isErrorKind = (s: string): s is ErrorKind => (ERROR_KINDS as readonly string[]).includes(s);

/**
 * The kind and code of an error text Tokenscope wrote into an export (`kind/code: message`), so
 * error kinds survive a round trip through vLLM's format; null for anyone else's text.
 */
function errorKindOf(text: unknown): { kind: ErrorKind; code: string } | null {
  if (typeof text !== 'string') return null;
  const m = /^([a-z]+)\/([a-z0-9-]+): /.exec(text);
  const kind = m?.[1];
  if (!m || kind === undefined || !isErrorKind(kind)) return null;
  return { kind, code: m[2]! };
}

/**
 * Failed requests by kind/code where the text says them (a Tokenscope export), else by
 * (shortened) error text: other tools' imports have no error kinds.
 */
export function errorsByMessage(o: Json, outcomes: readonly RequestOutcome[]): Record<string, number> {
  const errs = Array.isArray(o.errors) ? o.errors : [];
  const out: Record<string, number> = {};
  outcomes.forEach((oc, i) => {
    if (oc.ok) return;
    if (oc.errorKind && oc.errorCode) {
      const kc = `${oc.errorKind}/${oc.errorCode}`;
      out[kc] = (out[kc] ?? 0) + 1;
      return;
    }
    const k =
      String(errs[i] ?? 'failed')
        .split('\n')[0]!
        .slice(0, 80) || 'failed';
    out[k] = (out[k] ?? 0) + 1;
  });
  return out;
}

/** Statistics of a plain list in ms (for arrays that an aggregate-only file still carries). */
export function statsOfSeconds(values: number[]): MetricStats | null {
  return toMetricStats(summarize(values.map((v) => v * 1000)));
}

export const STAT_METRIC_SET: ReadonlySet<string> = new Set<string>(STAT_METRICS);
