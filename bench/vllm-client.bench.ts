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
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPrompts } from '../electron/runs/prompts.ts';
import { parseWorkload } from '../shared/runs/workload.ts';
import { numArg, parseArgs, pct } from './accuracy/common.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin/tokenscope.mjs');
const DRIVER = path.join(ROOT, 'bench/vllm-client/driver.py');

interface Config {
  name: string;
  sim: string[];
  inputLen: string;
  outputLen: string;
}
const CONFIGS: Record<string, Config> = {
  jitter: { name: 'jitter', sim: ['--jitter', '0.15'], inputLen: '100-1000', outputLen: '32-256' },
  steady: { name: 'steady', sim: ['--jitter', '0'], inputLen: '256', outputLen: '128' },
};

function pinning(): { server: string[]; client: string[]; note: string } {
  const ok = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
  if (!ok || os.cpus().length < 2) return { server: [], client: [], note: 'not pinned' };
  return {
    server: ['taskset', '-c', '1'],
    client: ['taskset', '-c', '0'],
    note: 'simulator on CPU 1, each client on CPU 0',
  };
}

function run(cmd: string[], quiet = true): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd[0]!, cmd.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    c.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!quiet) process.stderr.write(d);
    });
    c.on('error', reject);
    c.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function startSim(pin: string[], extra: string[]): Promise<{ url: string; stop: () => void }> {
  const args = [...pin, process.execPath, CLI, 'sim', '--port', '0', '--quiet', ...extra];
  const c = spawn(args[0]!, args.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    c.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(buf);
      if (m) resolve(m[1]!.replace(/\/$/, ''));
    });
    c.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
  });
  return { url, stop: () => c.kill() };
}

async function promptsFile(cfg: Config, n: number, file: string): Promise<void> {
  const len = (s: string) => {
    const [a, b] = s.split('-').map(Number);
    return b === undefined ? a! : { type: 'uniform' as const, min: a!, max: b };
  };
  const w = parseWorkload({
    requests: n,
    prompts: { type: 'synthetic', inputLen: len(cfg.inputLen), outputLen: len(cfg.outputLen) },
  });
  if (!w.ok) throw new Error(JSON.stringify(w.issues));
  const p = await loadPrompts(w.workload.prompts, w.workload.seed, ROOT);
  const items = Array.from({ length: n }, (_, i) => {
    const it = p.at(i);
    return { prompt: it.prompt, prompt_len: it.inputTokens, output_len: it.outputTokens };
  });
  fs.writeFileSync(file, JSON.stringify(items));
}

interface JsonRow {
  metric: string;
  values: (number | null)[];
  relative: (number | null)[];
  interval: ([number, number] | null)[];
  verdict: (string | null)[];
}
interface Row {
  metric: string;
  vllm: number | null;
  tokenscope: number | null;
  change: number | null;
  ci: [number, number] | null;
  /** The 95 % interval holds 0 (null: the row has no interval). */
  inside: boolean | null;
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
  const out: Record<string, unknown>[] = [];
  process.stderr.write(`vllm-client: ${n} requests, max concurrency ${c}, ${pin.note}, files in ${dir}\n`);
  for (const cfg of configs) {
    const prompts = path.join(dir, `${cfg.name}-prompts.json`);
    if (!reuse) await promptsFile(cfg, n, prompts);
    for (let k = 1; k <= pairs; k++) {
      const vfile = path.join(dir, `${cfg.name}-${k}-vllm.json`);
      const tfile = path.join(dir, `${cfg.name}-${k}-tokenscope.jsonl`);
      // Each client gets a fresh simulator (same seed: the same schedule) logging its ground truth.
      const withSim = async (label: string, client: (url: string) => Promise<void>): Promise<Truth> => {
        const truth = path.join(dir, `${cfg.name}-${k}-${label}-truth.jsonl`);
        if (reuse) return truthOf(truth);
        const sim = await startSim(pin.server, [...cfg.sim, '--ground-truth', truth]);
        try {
          await client(sim.url);
          await new Promise((r) => setTimeout(r, 600)); // the log is flushed every 200 ms
        } finally {
          sim.stop();
        }
        return truthOf(truth);
      };
      const vllm = async (url: string): Promise<void> => {
        const r = await run([
          ...pin.client,
          python,
          DRIVER,
          '--request-func',
          requestFunc,
          '--url',
          url,
          '--model',
          'tokenscope-sim',
          '--prompts',
          prompts,
          '--max-concurrency',
          String(c),
          '--ignore-eos',
          '--out',
          vfile,
        ]);
        if (r.code !== 0) throw new Error(`vLLM client: ${r.stderr.slice(-2000)}`);
      };
      const ts = async (url: string): Promise<void> => {
        const r = await run([
          ...pin.client,
          process.execPath,
          CLI,
          'run',
          '--target',
          url,
          '-m',
          'tokenscope-sim',
          '-n',
          String(n),
          '-c',
          String(c),
          '--input-len',
          cfg.inputLen,
          '--output-len',
          cfg.outputLen,
          '--no-server-metrics',
          '--quiet',
          '--json',
          '--out',
          tfile,
        ]);
        if (r.code !== 0) throw new Error(`tokenscope run: ${r.stderr.slice(-2000)}`);
      };
      // The order alternates, so a drift of the machine does not always favour one client.
      let serverV: Truth;
      let serverT: Truth;
      if (k % 2 === 1) {
        serverV = await withSim('vllm', vllm);
        serverT = await withSim('tokenscope', ts);
      } else {
        serverT = await withSim('tokenscope', ts);
        serverV = await withSim('vllm', vllm);
      }
      const cmp = await run([process.execPath, CLI, 'compare', vfile, tfile, '--json']);
      if (cmp.code !== 0) throw new Error(`compare: ${cmp.stdout}${cmp.stderr}`);
      const j = JSON.parse(cmp.stdout) as { definitions?: unknown; rows: JsonRow[] };
      const rows: Row[] = j.rows
        .filter((r) => r.values[0] !== null && r.values[1] !== null)
        .map((r) => {
          const ci = r.interval[1] ?? null;
          return {
            metric: r.metric,
            vllm: r.values[0]!,
            tokenscope: r.values[1]!,
            change: r.relative[1] ?? null,
            ci,
            inside: ci ? ci[0] <= 0 && 0 <= ci[1] : null,
          };
        });
      const withCi = rows.filter((r) => r.inside !== null);
      const outside = withCi.filter((r) => !r.inside);
      process.stderr.write(
        `\n${cfg.name} #${k} (${k % 2 === 1 ? 'vLLM first' : 'Tokenscope first'}), definitions ${String(j.definitions)}: ${withCi.length} rows with an interval, ${outside.length} outside it\n`,
      );
      for (const r of rows)
        process.stderr.write(
          `  ${r.metric.padEnd(30)} vLLM ${fmt(r.vllm).padStart(10)}  Tokenscope ${fmt(r.tokenscope).padStart(10)}  ${
            r.change === null ? ''.padStart(9) : `${(r.change * 100).toFixed(2)} %`.padStart(9)
          }  ${r.ci ? `[${(r.ci[0] * 100).toFixed(2)}, ${(r.ci[1] * 100).toFixed(2)}] %` : '(no interval)'}${r.inside === false ? '  OUTSIDE' : ''}\n`,
        );
      // Against the simulator's own log of each run: how far each client's numbers are from what
      // the server did (TTFT: from the request read whole, so the client's sending is in its share).
      const errV = againstTruth(rows, 'vllm', serverV);
      const errT = againstTruth(rows, 'tokenscope', serverT);
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
      out.push({
        config: cfg.name,
        pair: k,
        order: k % 2 === 1 ? 'vllm-first' : 'tokenscope-first',
        definitions: j.definitions,
        rows,
        outside: outside.map((r) => r.metric),
        clientMinusLogMs: { vllm: errV, tokenscope: errT },
      });
    }
  }
  return { requests: n, concurrency: c, pinning: pin.note, results: out };
}

/** What the simulator's log says of one run, by the `vllm` preset's rules, in ms. */
interface Truth {
  /** From the request read whole to its first write (the role chunk), every request but the test one. */
  ttft: number[];
  /** Gaps between consecutive `choices` writes of a response. */
  itl: number[];
}

function truthOf(file: string): Truth {
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
function againstTruth(rows: Row[], side: 'vllm' | 'tokenscope', t: Truth): Record<string, number> {
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

function fmt(v: number | null): string {
  return v === null ? '—' : Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(3);
}
