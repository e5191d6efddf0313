/**
 * Speculative decoding from a server's /metrics, as each server defines it (docs/metrics.md
 * "Speculative decoding"):
 *
 * - vLLM counts per engine (vllm/v1/spec_decode/metrics.py, `SpecDecodingProm`, fed by the V1
 *   scheduler's `update_from_output`: per request and step, `num_draft_tokens` = the drafts it
 *   verified, `num_accepted` = tokens the verifier returned − 1, counted before the stop check):
 *   `vllm:spec_decode_num_drafts` (verification steps of a request), `…_num_draft_tokens`,
 *   `…_num_accepted_tokens` and `…_num_accepted_tokens_per_pos{position="i"}` (drafts whose first
 *   i + 1 tokens were all accepted). Over a window its docstring defines
 *     acceptance rate = Δaccepted / Δdraft_tokens,
 *     mean acceptance length = 1 + Δaccepted / Δdrafts ("conventionally including the bonus token"),
 *     per-position acceptance rate i = Δaccepted_per_pos[i] / Δdrafts.
 *   llama.cpp's server exports the first three under `llamacpp:spec_decode_*_total`.
 * - SGLang (python/sglang/srt/metrics/collector.py) has two gauges set at each decode log interval:
 *   `sglang:spec_accept_length` = (accepted + one bonus per request) / verify steps over that
 *   interval (scheduler: `spec_num_total_accepted_tokens += num_accepted_tokens + bs`,
 *   `spec_num_total_forward_ct += bs`) — the same quantity as vLLM's mean acceptance length — and
 *   `sglang:spec_accept_rate` = accepted / draft tokens in the batch. Both are 0 when speculative
 *   decoding is off (the gauges exist on every SGLang server), so a length below 1 means "not in
 *   use". A gauge has no window: over a run its scraped values are averaged (avg_over_time).
 *
 * Nothing here invents a zero: a server without these families reads null ("not exposed").
 */
import type { Labels, ParseResult, Sample } from './prom-types.ts';
import { counterIncrease } from './prom-math.ts';

interface SpecDecodeCounters {
  drafts: number;
  draftTokens: number;
  accepted: number;
  /** Accepted tokens by draft position (index = the `position` label); null: not exported. */
  perPosition: number[] | null;
}

/** One scrape's speculative-decoding families; null parts are not exposed. */
export interface SpecDecodeReading {
  /** vLLM (and llama.cpp) counters, summed over engines. */
  counters: SpecDecodeCounters | null;
  /** SGLang's gauges (its last log interval), averaged over ranks; null when absent or 0 (off). */
  gauges: { acceptLength: number; acceptRate: number | null } | null;
}

/** Over a window: what the card, the run summary, `tokenscope metrics` and comparisons show. */
export interface SpecDecodeWindow {
  /** 'counters': exact over the window (vLLM, llama.cpp); 'gauges': SGLang's averaged. */
  source: 'counters' | 'gauges';
  /** Counter increases over the window (null with gauges). */
  drafts: number | null;
  draftTokens: number | null;
  acceptedTokens: number | null;
  /** 0–1; null when no draft token was verified in the window. */
  acceptanceRate: number | null;
  /** Tokens per verification step, the bonus token included (≥ 1); null without drafts. */
  meanAcceptanceLength: number | null;
  /** 0–1 per draft position; null when the server does not export it or there were no drafts. */
  perPosition: number[] | null;
  /** Scrapes the window spans (gauges: how many values were averaged). */
  scrapes: number;
}

const NAMES = {
  drafts: ['vllm:spec_decode_num_drafts', 'llamacpp:spec_decode_num_drafts'],
  draftTokens: ['vllm:spec_decode_num_draft_tokens', 'llamacpp:spec_decode_num_draft_tokens'],
  accepted: ['vllm:spec_decode_num_accepted_tokens', 'llamacpp:spec_decode_num_accepted_tokens'],
  perPos: ['vllm:spec_decode_num_accepted_tokens_per_pos'],
  acceptLength: ['sglang:spec_accept_length'],
  acceptRate: ['sglang:spec_accept_rate'],
} as const;

const mangle = (name: string): string => name.replace(/:/g, '_');

function kept(s: Sample, filter: Labels | undefined): boolean {
  if (filter === undefined) return true;
  for (const k of Object.keys(filter)) {
    const v = s.labels[k];
    if (v !== undefined && v !== filter[k]) return false; // a sample without the label is kept
  }
  return Number.isFinite(s.value);
}

/** The samples of the first of `names` the scrape has (counters also under `_total`, and mangled). */
function samplesOf(parsed: ParseResult, names: readonly string[], counter: boolean): Sample[] | null {
  for (const base of names) {
    const want = new Set([base, mangle(base)]);
    if (counter) for (const n of [...want]) want.add(`${n}_total`);
    const out: Sample[] = [];
    for (const f of parsed.families) for (const s of f.samples) if (want.has(s.name)) out.push(s);
    if (out.length > 0) return out;
  }
  return null;
}

function total(samples: Sample[] | null, filter: Labels | undefined): number | null {
  if (samples === null) return null;
  let sum = 0;
  let n = 0;
  for (const s of samples) {
    if (!kept(s, filter)) continue;
    sum += s.value;
    n++;
  }
  return n > 0 ? sum : null;
}

function mean(samples: Sample[] | null, filter: Labels | undefined): number | null {
  const s = total(samples, filter);
  const n = samples?.filter((x) => kept(x, filter)).length ?? 0;
  return s === null || n === 0 ? null : s / n;
}

/** Per `position` label, summed over engines; positions past 64 are not believed. */
function perPosition(samples: Sample[] | null, filter: Labels | undefined): number[] | null {
  if (samples === null) return null;
  const out: number[] = [];
  for (const s of samples) {
    const pos = Number(s.labels['position']);
    if (!kept(s, filter) || !Number.isInteger(pos) || pos < 0 || pos >= 64) continue;
    while (out.length <= pos) out.push(0);
    out[pos] = (out[pos] as number) + s.value;
  }
  return out.length > 0 ? out : null;
}

/** The speculative-decoding families of one scrape (filter: e.g. `{ model_name }`); null: none. */
export function readSpecDecode(parsed: ParseResult, filter?: Labels): SpecDecodeReading | null {
  const drafts = total(samplesOf(parsed, NAMES.drafts, true), filter);
  const draftTokens = total(samplesOf(parsed, NAMES.draftTokens, true), filter);
  const accepted = total(samplesOf(parsed, NAMES.accepted, true), filter);
  const counters =
    drafts !== null && draftTokens !== null && accepted !== null
      ? {
          drafts,
          draftTokens,
          accepted,
          perPosition: perPosition(samplesOf(parsed, NAMES.perPos, true), filter),
        }
      : null;
  const length = mean(samplesOf(parsed, NAMES.acceptLength, false), filter);
  // SGLang writes 0 when speculative decoding is off; a real accept length is at least 1.
  const gauges =
    length !== null && length >= 1
      ? { acceptLength: length, acceptRate: mean(samplesOf(parsed, NAMES.acceptRate, false), filter) }
      : null;
  return counters === null && gauges === null ? null : { counters, gauges };
}

export interface SpecDecodePoint {
  /** Monotonic or epoch ms: only the order matters. */
  t: number;
  spec: SpecDecodeReading | null;
}

function increase(points: readonly SpecDecodePoint[], get: (c: SpecDecodeCounters) => number | undefined) {
  const pts: { t: number; v: number }[] = [];
  for (const p of points) {
    const v = p.spec?.counters ? get(p.spec.counters) : undefined;
    if (v !== undefined) pts.push({ t: p.t, v });
  }
  return pts.length >= 2 ? counterIncrease(pts) : null;
}

function fromCounters(points: readonly SpecDecodePoint[]): SpecDecodeWindow | null {
  const drafts = increase(points, (c) => c.drafts);
  const draftTokens = increase(points, (c) => c.draftTokens);
  const accepted = increase(points, (c) => c.accepted);
  if (drafts === null || draftTokens === null || accepted === null) return null;
  const width = Math.max(0, ...points.map((p) => p.spec?.counters?.perPosition?.length ?? 0));
  let perPos: number[] | null = null;
  if (width > 0 && drafts > 0) {
    perPos = [];
    for (let i = 0; i < width; i++) perPos.push((increase(points, (c) => c.perPosition?.[i]) ?? 0) / drafts);
  }
  return {
    source: 'counters',
    drafts,
    draftTokens,
    acceptedTokens: accepted,
    acceptanceRate: draftTokens > 0 ? accepted / draftTokens : null,
    meanAcceptanceLength: drafts > 0 ? 1 + accepted / drafts : null,
    perPosition: perPos,
    scrapes: points.length,
  };
}

function fromGauges(points: readonly SpecDecodePoint[]): SpecDecodeWindow | null {
  const lengths: number[] = [];
  const rates: number[] = [];
  for (const p of points) {
    const g = p.spec?.gauges;
    if (!g) continue;
    lengths.push(g.acceptLength);
    if (g.acceptRate !== null) rates.push(g.acceptRate);
  }
  if (lengths.length === 0) return null;
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    source: 'gauges',
    drafts: null,
    draftTokens: null,
    acceptedTokens: null,
    acceptanceRate: avg(rates),
    meanAcceptanceLength: avg(lengths),
    perPosition: null,
    scrapes: lengths.length,
  };
}

/**
 * Speculative decoding over the scrapes of a window (in time order): counters by their reset-aware
 * increase (at least two scrapes with them), else SGLang's gauges averaged; null when the server
 * exposes neither ("not exposed by this server").
 */
export function specDecodeWindow(points: readonly SpecDecodePoint[]): SpecDecodeWindow | null {
  return fromCounters(points) ?? fromGauges(points);
}
