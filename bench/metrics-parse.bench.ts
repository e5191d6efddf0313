/**
 * Parser throughput on a synthetic ~1 MB /metrics body built from the corpus payloads.
 * A plain script, not a timed unit test: `npx tsx bench/metrics-parse.bench.ts`.
 * Target (the brief): well under 20 ms per 1 MB parse.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePrometheus } from '../shared/metrics/prom-parse.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', '..', 'shared', 'corpus', 'metrics');
if (!existsSync(corpus)) throw new Error(`metrics corpus not found at ${corpus}`);

// All text-format payloads; each copy gets a distinct name prefix so families stay unique
// (repeating the same TYPE line would only measure the error path).
const texts = readdirSync(corpus)
  .filter((f) => f.endsWith('.prom'))
  .map((f) => readFileSync(join(corpus, f), 'utf8'));
const TARGET = 1024 * 1024;
const parts: string[] = [];
let size = 0;
for (let copy = 0; size < TARGET; copy++) {
  for (const [k, t] of texts.entries()) {
    const p = `c${copy}f${k}_`;
    const renamed = t.replace(/^(# (?:HELP|TYPE) )/gm, `$1${p}`).replace(/^([a-zA-Z_:])/gm, `${p}$1`);
    parts.push(renamed);
    size += renamed.length;
  }
}
const body = parts.join('');

const first = parsePrometheus(body);
const samples = first.families.reduce((n, f) => n + f.samples.length, 0);
if (first.errors.length > 0) throw new Error(`synthetic payload has errors: ${JSON.stringify(first.errors[0])}`);

for (let i = 0; i < 20; i++) parsePrometheus(body); // warm up the JIT
const runs = 50;
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  parsePrometheus(body);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const pct = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
const mb = (body.length / (1024 * 1024)).toFixed(2);
console.log(
  `metrics-parse: ${mb} MB, ${first.families.length} families, ${samples} samples — ` +
    `median ${pct(0.5).toFixed(2)} ms, p90 ${pct(0.9).toFixed(2)} ms, min ${(times[0] as number).toFixed(2)} ms per parse`,
);
