/**
 * Parser throughput on a synthetic ~1 MB /metrics body built from the corpus payloads.
 * A plain script, not a timed unit test: `node bin/run-ts.mjs bench/metrics-parse.bench.ts`
 * (or `npm run bench metrics`). Target: well under 20 ms per 1 MB parse.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePrometheus } from '../shared/metrics/prom-parse.ts';
import { CORPUS_DIR } from '../electron/testing/corpus.ts';

const corpus = join(CORPUS_DIR, 'metrics');
if (!existsSync(corpus)) throw new Error(`metrics corpus not found at ${corpus}`);

// All text-format payloads; each copy gets a distinct name prefix so families stay unique
// (repeating the same TYPE line would only measure the error path).
/** All text-format payloads, each copy with its own name prefix so families stay unique (repeating the
 * same TYPE lines would only measure the error path), concatenated up to ~1 MB. */
function syntheticBody(): string {
  const texts = readdirSync(corpus)
    .filter((f) => f.endsWith('.prom'))
    .map((f) => readFileSync(join(corpus, f), 'utf8'));
  const parts: string[] = [];
  let size = 0;
  for (let copy = 0; size < 1024 * 1024; copy++) {
    for (const [k, t] of texts.entries()) {
      const p = `c${copy}f${k}_`;
      const renamed = t.replace(/^(# (?:HELP|TYPE) )/gm, `$1${p}`).replace(/^([a-zA-Z_:])/gm, `${p}$1`);
      parts.push(renamed);
      size += renamed.length;
    }
  }
  return parts.join('');
}

/** The largest real payload in the corpus (what one scrape of a real server costs). */
function largestRealPayload(): { kb: number; ms: number } {
  const files = readdirSync(corpus).filter((f) => f.endsWith('.prom'));
  const text =
    files.map((f) => readFileSync(join(corpus, f), 'utf8')).sort((a, b) => b.length - a.length)[0] ?? '';
  for (let i = 0; i < 50; i++) parsePrometheus(text);
  const ts: number[] = [];
  for (let i = 0; i < 101; i++) {
    const t0 = performance.now();
    parsePrometheus(text);
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return { kb: text.length / 1024, ms: ts[50] as number };
}

export function benchMetricsParse(): Record<string, number> {
  const realLargest = largestRealPayload();
  const body = syntheticBody();
  const first = parsePrometheus(body);
  if (first.errors.length > 0)
    throw new Error(`synthetic payload has errors: ${JSON.stringify(first.errors[0])}`);
  // The machine's floor: one charCodeAt pass over the same body. This VM shares its cores with
  // others and its speed drifts by 2× within minutes, so each parse is timed right after a scan and
  // the ratio is taken per pair: parse time as a multiple of the floor compares across machines
  // (and across minutes) better than milliseconds do.
  const scan = (): number => {
    let h = 0;
    for (let i = 0; i < body.length; i++) h = (h + body.charCodeAt(i)) | 0;
    return h;
  };
  for (let i = 0; i < 20; i++) {
    parsePrometheus(body); // warm up the JIT
    scan();
  }
  const times: number[] = [];
  const scans: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < 80; i++) {
    let t0 = performance.now();
    scan();
    const sc = performance.now() - t0;
    t0 = performance.now();
    parsePrometheus(body);
    const t = performance.now() - t0;
    times.push(t);
    scans.push(sc);
    ratios.push(t / sc);
  }
  times.sort((a, b) => a - b);
  scans.sort((a, b) => a - b);
  ratios.sort((a, b) => a - b);
  const mid = (xs: number[]): number => xs[xs.length >> 1] as number;
  const pct = (q: number): number =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  const round = (x: number): number => Math.round(x * 100) / 100;
  return {
    megabytes: round(body.length / (1024 * 1024)),
    families: first.families.length,
    samples: first.families.reduce((n, f) => n + f.samples.length, 0),
    medianMs: round(pct(0.5)),
    p90Ms: round(pct(0.9)),
    minMs: round(times[0] as number),
    scanBaselineMedianMs: round(mid(scans)),
    largestCorpusPayloadKB: round(realLargest.kb),
    largestCorpusPayloadMedianMs: round(realLargest.ms),
    medianOverScan: round(mid(ratios)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(benchMetricsParse(), null, 2));
}
