/**
 * The vllm-client bench's ground truth (bench/vllm-client.bench.ts): the simulator's own log of a
 * run, read by the `vllm` preset's rules, and how far each client's TTFT and ITL rows are from it.
 */
import fs from 'node:fs';
import { pct } from '../accuracy/common.ts';
import type { Row } from './compare.ts';

/** What the simulator's log says of one run, by the `vllm` preset's rules, in ms. */
export interface Truth {
  /** From the request read whole to its first write (the role chunk), every request but the test one. */
  ttft: number[];
  /** Gaps between consecutive `choices` writes of a response. */
  itl: number[];
}

export function truthOf(file: string): Truth {
  const by = new Map<string, { arrival: number | null; t: number[] }>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { requestId: string; tMs: number; kind: string; arrivalMs?: number };
    let e = by.get(r.requestId);
    if (!e) by.set(r.requestId, (e = { arrival: null, t: [] }));
    if (r.arrivalMs !== undefined) e.arrival = r.arrivalMs;
    if (r.kind === 'chunk') e.t.push(r.tMs);
  }
  // The first request to arrive is the client's test request, sent alone before the run.
  const reqs = [...by.values()].filter((e) => e.arrival !== null && e.t.length > 0);
  reqs.sort((a, b) => a.arrival! - b.arrival!);
  const measured = reqs.slice(1);
  return {
    ttft: measured.map((e) => e.t[0]! - e.arrival!).sort((a, b) => a - b),
    itl: measured.flatMap((e) => e.t.slice(1).map((x, k) => x - e.t[k]!)).sort((a, b) => a - b),
  };
}

const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;

/** Client value − the log's value, for the TTFT and ITL rows of one run. */
export function againstTruth(rows: Row[], side: 'vllm' | 'tokenscope', t: Truth): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) {
    const m = /^(ttft|itl)-(mean|p50|p90|p99)$/.exec(r.metric);
    const v = r[side];
    if (!m || v === null) continue;
    const xs = t[m[1] as 'ttft' | 'itl'];
    const truth = m[2] === 'mean' ? mean(xs) : pct(xs, Number(m[2]!.slice(1)));
    out[r.metric] = v - truth;
  }
  return out;
}

/** Each client's error against its own run's log, row by row, with the log's values beside. */
export function printAgainstTruth(
  err: { vllm: Record<string, number>; tokenscope: Record<string, number> },
  server: { vllm: Truth; tokenscope: Truth },
): void {
  const { vllm: errV, tokenscope: errT } = err;
  const { vllm: serverV, tokenscope: serverT } = server;
  process.stderr.write(
    `  client − simulator's log, ms:        vLLM's client   Tokenscope    (log: vLLM's run / Tokenscope's run)\n`,
  );
  for (const k of Object.keys(errV)) {
    const [metric, stat] = k.split('-') as ['ttft' | 'itl', string];
    const log = (t: Truth) => (stat === 'mean' ? mean(t[metric]) : pct(t[metric], Number(stat.slice(1))));
    process.stderr.write(
      `    ${k.padEnd(30)} ${errV[k]!.toFixed(2).padStart(8)} ${errT[k]!.toFixed(2).padStart(12)}    (${log(serverV).toFixed(2)} / ${log(serverT).toFixed(2)})\n`,
    );
  }
}
