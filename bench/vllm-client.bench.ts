/**
 * Tokenscope under the `vllm` preset against vLLM's own client, same workload, same simulator
 * (`npm run bench -- vllm-client --request-func PATH`): does `tokenscope compare` find every
 * difference inside its 95 % interval, as it should when both clients measure the same thing?
 *
 * - The simulator runs in its own process (pinned to one core with taskset where it can); each
 *   client runs alone, pinned to another core: vLLM's request function
 *   (`vllm/benchmarks/lib/endpoint_request_func.py`, from a vLLM checkout or installed package —
 *   not part of this repository) driven as `vllm bench serve` drives it (bench/vllm-client/driver.py),
 *   then `tokenscope run` — the order alternating between pairs.
 * - Both send the same prompts: the workload's synthetic prompts (seed 0), written out for the
 *   Python driver. Both send one test request first (vLLM's initial test; Tokenscope's test request).
 * - Each pair is compared with `tokenscope compare RUN VLLM --json` (the run re-derived under the
 *   `vllm` preset, as for any vLLM import): for every row, the change and its interval.
 * - Configurations: `jitter` (step time ±15 %, mixed lengths: what a server looks like) and `steady`
 *   (no jitter, fixed lengths: the intervals are as narrow as they get, so a systematic difference
 *   between the two clients' own timestamping shows).
 *
 * Options: --request-func PATH (required), --python /usr/bin/python3, --requests 200,
 * --concurrency 16, --pairs 2, --configs jitter,steady, --reuse DIR (analyse an earlier run's files again). The table goes to stderr, JSON to stdout.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numArg, parseArgs } from './accuracy/common.ts';
import { compareRuns, printComparison } from './vllm-client/compare.ts';
import { CONFIGS, promptsFile, type Config } from './vllm-client/configs.ts';
import { CLI, DRIVER, pinning, run, startSim, type Pinning } from './vllm-client/processes.ts';
import { againstTruth, printAgainstTruth, truthOf, type Truth } from './vllm-client/truth.ts';

/** What every pair shares: the clients, the workload's size, the pinning and the files' folder. */
interface BenchContext {
  requestFunc: string;
  python: string;
  /** Requests per run, and the clients' maximum concurrency. */
  n: number;
  c: number;
  pin: Pinning;
  dir: string;
  /** Analyse the files already in `dir` instead of running the clients. */
  reuse: boolean;
}

/** One pair: its configuration, its number, and its files. */
interface PairContext extends BenchContext {
  cfg: Config;
  k: number;
  prompts: string;
  vfile: string;
  tfile: string;
}

// Each client gets a fresh simulator (same seed: the same schedule) logging its ground truth.
async function withSim(
  p: PairContext,
  label: string,
  client: (url: string) => Promise<void>,
): Promise<Truth> {
  const truth = path.join(p.dir, `${p.cfg.name}-${p.k}-${label}-truth.jsonl`);
  if (p.reuse) return truthOf(truth);
  const sim = await startSim(p.pin.server, [...p.cfg.sim, '--ground-truth', truth]);
  try {
    await client(sim.url);
    await new Promise((r) => setTimeout(r, 600)); // the log is flushed every 200 ms
  } finally {
    sim.stop();
  }
  return truthOf(truth);
}

/** vLLM's request function, driven by bench/vllm-client/driver.py as `vllm bench serve` drives it. */
async function runVllm(p: PairContext, url: string): Promise<void> {
  const r = await run([
    ...p.pin.client,
    p.python,
    DRIVER,
    '--request-func',
    p.requestFunc,
    '--url',
    url,
    '--model',
    'tokenscope-sim',
    '--prompts',
    p.prompts,
    '--max-concurrency',
    String(p.c),
    '--ignore-eos',
    '--out',
    p.vfile,
  ]);
  if (r.code !== 0) throw new Error(`vLLM client: ${r.stderr.slice(-2000)}`);
}

async function runTokenscope(p: PairContext, url: string): Promise<void> {
  const r = await run([
    ...p.pin.client,
    process.execPath,
    CLI,
    'run',
    '--target',
    url,
    '-m',
    'tokenscope-sim',
    '-n',
    String(p.n),
    '-c',
    String(p.c),
    '--input-len',
    p.cfg.inputLen,
    '--output-len',
    p.cfg.outputLen,
    '--no-server-metrics',
    '--quiet',
    '--json',
    '--out',
    p.tfile,
  ]);
  if (r.code !== 0) throw new Error(`tokenscope run: ${r.stderr.slice(-2000)}`);
}

/** Both clients (the order alternating), their comparison and their errors against the logs. */
async function runPair(p: PairContext): Promise<Record<string, unknown>> {
  const { cfg, k } = p;
  const vllm = (url: string): Promise<void> => runVllm(p, url);
  const ts = (url: string): Promise<void> => runTokenscope(p, url);
  // The order alternates, so a drift of the machine does not always favour one client.
  let serverV: Truth;
  let serverT: Truth;
  if (k % 2 === 1) {
    serverV = await withSim(p, 'vllm', vllm);
    serverT = await withSim(p, 'tokenscope', ts);
  } else {
    serverT = await withSim(p, 'tokenscope', ts);
    serverV = await withSim(p, 'vllm', vllm);
  }
  const cmp = await compareRuns(p.vfile, p.tfile);
  printComparison(`${cfg.name} #${k} (${k % 2 === 1 ? 'vLLM first' : 'Tokenscope first'})`, cmp);
  // Against the simulator's own log of each run: how far each client's numbers are from what
  // the server did (TTFT: from the request read whole, so the client's sending is in its share).
  const errV = againstTruth(cmp.rows, 'vllm', serverV);
  const errT = againstTruth(cmp.rows, 'tokenscope', serverT);
  printAgainstTruth({ vllm: errV, tokenscope: errT }, { vllm: serverV, tokenscope: serverT });
  return {
    config: cfg.name,
    pair: k,
    order: k % 2 === 1 ? 'vllm-first' : 'tokenscope-first',
    definitions: cmp.definitions,
    rows: cmp.rows,
    outside: cmp.outside.map((r) => r.metric),
    clientMinusLogMs: { vllm: errV, tokenscope: errT },
  };
}

export async function benchVllmClient(argv: readonly string[]): Promise<unknown> {
  const a = parseArgs(argv);
  const requestFunc = a.get('request-func');
  if (!requestFunc || !fs.existsSync(requestFunc))
    return 'not available: --request-func PATH to vLLM’s vllm/benchmarks/lib/endpoint_request_func.py';
  const python = a.get('python') ?? '/usr/bin/python3';
  if (spawnSync(python, ['-c', 'import aiohttp, tqdm, regex'], { stdio: 'ignore' }).status !== 0)
    return `not available: ${python} lacks aiohttp, tqdm or regex`;
  const n = Math.floor(numArg(a, 'requests', 200));
  const c = Math.floor(numArg(a, 'concurrency', 16));
  const pairs = Math.floor(numArg(a, 'pairs', 2));
  const configs = (a.get('configs') ?? 'jitter,steady').split(',').map((k) => CONFIGS[k]!);
  const pin = pinning();
  // --reuse DIR: analyse the files of an earlier run again instead of running the clients.
  const reuse = a.get('reuse');
  const dir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tokenscope-vllm-client-'));
  const ctx: BenchContext = { requestFunc, python, n, c, pin, dir, reuse: !!reuse };
  const out: Record<string, unknown>[] = [];
  process.stderr.write(`vllm-client: ${n} requests, max concurrency ${c}, ${pin.note}, files in ${dir}\n`);
  for (const cfg of configs) {
    const prompts = path.join(dir, `${cfg.name}-prompts.json`);
    if (!reuse) await promptsFile(cfg, n, prompts);
    for (let k = 1; k <= pairs; k++) {
      const vfile = path.join(dir, `${cfg.name}-${k}-vllm.json`);
      const tfile = path.join(dir, `${cfg.name}-${k}-tokenscope.jsonl`);
      out.push(await runPair({ ...ctx, cfg, k, prompts, vfile, tfile }));
    }
  }
  return { requests: n, concurrency: c, pinning: pin.note, results: out };
}
