/**
 * A scrape digest as terminal text: one block per scrape, the concept name, its value, and where
 * the server has no such metric the profile's note instead of a bare dash (so "no TTFT on TGI"
 * reads as a fact about TGI, not as a Tokenscope bug).
 */
import { fmtBytes } from '../../shared/format.ts';
import {
  DISAGG_SCALAR_CONCEPTS,
  PROFILES,
  type Concept,
  type DisaggScalarConcept,
} from '../../shared/metrics/profiles.ts';
import { bucketText, type QuantileBucket } from '../../shared/runs/summary/server-quantile.ts';
import type { HistogramSummary, ScrapeDigest, WindowSummary } from './scrape-digest.ts';
import type { SpecDecodeWindow } from '../../shared/metrics/spec-decode.ts';
import { SPEC_NOT_EXPOSED } from '../../shared/runs/summary/spec-decode-text.ts';

const W = 20;
const row = (name: string, value: string): string => `  ${name.padEnd(W)}${value}`;

function n(v: number | null, digits = 0): string {
  if (v === null) return '—';
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Seconds shown as ms below 10 s (server latencies are mostly sub-second). */
function secs(v: number | null): string {
  if (v === null) return '—';
  return v < 10 ? `${(v * 1000).toFixed(v < 0.01 ? 2 : 1)} ms` : `${v.toFixed(2)} s`;
}

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const perSec = (v: number | null, digits = 1): string => (v === null ? '' : `  ${n(v, digits)}/s`);

/**
 * A quantile: the server's bucket when it is wide next to the interpolated value ("0–300 ms", as
 * the app shows it: the true value is anywhere inside), else the value.
 */
function quantile(v: number | null, range: QuantileBucket | null): string {
  if (range === null) return secs(v);
  const inSeconds = (range[1] ?? range[0]) >= 10;
  const k = inSeconds ? 1 : 1000;
  return `${bucketText([range[0] * k, range[1] === null ? null : range[1] * k])} ${inSeconds ? 's' : 'ms'}`;
}

function hist(h: HistogramSummary | WindowSummary): string {
  const reset = 'reset' in h && h.reset ? '  (server restarted)' : '';
  return `n ${n(h.count)}  mean ${secs(h.mean)}  p50 ${quantile(h.p50, h.p50Range)}  p90 ${quantile(h.p90, h.p90Range)}  p99 ${quantile(h.p99, h.p99Range)}${reset}`;
}

/** Speculative decoding in one line: rate, mean acceptance length (bonus included), per position. */
function spec(w: SpecDecodeWindow): string {
  if (w.meanAcceptanceLength === null) return 'no drafts';
  const pos = w.perPosition
    ? `  by position ${w.perPosition.map((p) => (p * 100).toFixed(1)).join(' / ')} %`
    : '';
  const counts = w.drafts !== null ? `  (${n(w.drafts)} drafts)` : "  (SGLang's gauges)";
  return `rate ${pct(w.acceptanceRate)}  mean length ${w.meanAcceptanceLength.toFixed(2)}${pos}${counts}`;
}

function specLines(r: ScrapeDigest): string[] {
  const sd = r.specDecode;
  if (sd === null) return [row('spec decoding', `— ${SPEC_NOT_EXPOSED}`)];
  const out = [row('spec decoding', sd.sinceStart ? spec(sd.sinceStart) : '—')];
  if (sd.window && r.rates) out.push(row(`  last ${r.rates.intervalSec.toFixed(2)} s`, spec(sd.window)));
  return out;
}

function missing(r: ScrapeDigest, c: Concept): string {
  const note = PROFILES[r.profile.id].notes[c];
  return note === undefined ? '—' : `— not exposed (${note})`;
}

/** Disaggregated serving: queues and KV transfer, on profiles that map any of them. */
function disaggLines(r: ScrapeDigest, fmtHist: (h: HistogramSummary) => string): string[] {
  const p = PROFILES[r.profile.id];
  if (!DISAGG_SCALAR_CONCEPTS.some((k) => p.scalars[k]) && !p.histograms.kvTransferHistogram) return [];
  const c = r.concepts;
  const q = (label: string, k: DisaggScalarConcept): string =>
    row(label, c[k] === null ? missing(r, k) : n(c[k]));
  const h = c.kvTransferHistogram;
  return [
    q('prefill queue', 'prefillPreallocQueue'),
    q('prefill sending KV', 'prefillInflightQueue'),
    q('decode prealloc', 'decodePreallocQueue'),
    q('decode receiving KV', 'decodeTransferQueue'),
    row('KV transfer', h === null ? missing(r, 'kvTransferHistogram') : fmtHist(h)),
  ];
}

export function formatScrapeDigest(r: ScrapeDigest, opts: { showTime?: boolean } = {}): string {
  const c = r.concepts;
  const x = r.rates;
  const time = opts.showTime ? `  [${r.time.slice(11, 23)}]` : '';
  const lines = [
    `${r.profile.label} (${r.profile.id})  ${r.url}${time}`,
    `  ${r.families} families · ${r.series} series · ${r.errors.length} parse errors · ${fmtBytes(r.scrape.bytes)} in ${r.scrape.durationMs.toFixed(1)} ms`,
  ];
  if (r.profile.id === 'unknown') {
    lines.push('  No known inference-server metrics: every raw series is still parsed (see --json).');
  } else {
    const scalar = (label: string, v: number | null, concept: Concept, fmt = n): void => {
      lines.push(row(label, v === null ? missing(r, concept) : fmt(v)));
    };
    scalar('requests running', c.requestsRunning, 'requestsRunning');
    scalar('requests waiting', c.requestsWaiting, 'requestsWaiting');
    scalar('KV-cache usage', c.kvCacheUsage, 'kvCacheUsage', pct);
    const counter = (
      label: string,
      v: number | null,
      concept: Concept,
      rate: number | null | undefined,
    ): void => {
      lines.push(row(label, v === null ? missing(r, concept) : `${n(v)} total${perSec(rate ?? null)}`));
    };
    counter('prompt tokens', c.promptTokensTotal, 'promptTokensTotal', x?.promptTokensPerSec);
    counter('generation tokens', c.generationTokensTotal, 'generationTokensTotal', x?.generationTokensPerSec);
    counter('preemptions', c.preemptionsTotal, 'preemptionsTotal', x?.preemptionsPerSec);
    const hitRate = x?.prefixCacheHitRate ?? c.prefixCacheHitRate;
    if (c.prefixCacheHitsTotal !== null || hitRate !== null) {
      const counts =
        c.prefixCacheHitsTotal !== null && c.prefixCacheQueriesTotal !== null
          ? `${n(c.prefixCacheHitsTotal)} of ${n(c.prefixCacheQueriesTotal)} tokens hit  `
          : '';
      lines.push(row('prefix cache', `${counts}hit rate ${pct(hitRate)}`));
    } else lines.push(row('prefix cache', missing(r, 'prefixCacheHitRate')));
    const hists = [
      ['TTFT', c.ttftHistogram, x?.ttft, 'ttftHistogram'],
      ['inter-token', c.itlHistogram, x?.itl, 'itlHistogram'],
      ['e2e latency', c.e2eHistogram, x?.e2e, 'e2eHistogram'],
      ['queue time', c.queueTimeHistogram, x?.queueTime, 'queueTimeHistogram'],
    ] as const;
    for (const [label, h, w, concept] of hists) {
      lines.push(row(label, h === null ? missing(r, concept) : hist(h)));
      if (w !== null && w !== undefined && x !== null)
        lines.push(row(`  last ${x.intervalSec.toFixed(2)} s`, hist(w)));
    }
    lines.push(...specLines(r));
    lines.push(...disaggLines(r, hist));
  }
  if (r.errors.length > 0) {
    lines.push('  parse errors (the other lines still parsed):');
    for (const e of r.errors.slice(0, 10)) lines.push(`    line ${e.line}: ${e.message}: ${e.text}`);
    if (r.errors.length > 10) lines.push(`    … and ${r.errors.length - 10} more (see --json)`);
  }
  return lines.join('\n') + '\n';
}
