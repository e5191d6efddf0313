/**
 * Timing accuracy of Tokenscope's load-run client against an independent truth, with a minimal
 * plain client as the baseline in the same run (`npm run bench -- accuracy`).
 *
 * - Truth: bench/accuracy/ref-server.ts, its own process pinned to one core. N streams in exact
 *   lockstep, one content chunk per stream every S ms, the CLOCK_MONOTONIC instant each chunk was
 *   handed to the kernel logged.
 * - Baseline: bench/accuracy/baseline-client.ts, plain node:http, stamps each read and only counts
 *   SSE events in it. Engine: bench/accuracy/engine-client.ts, `runWorkload` (tokenscope run's
 *   path), times put on CLOCK_MONOTONIC through the run header's clock anchor. Each in its own
 *   process, pinned to another core, one after the other (the order alternates between repeats).
 * - Per request: TTFT error = the client's stamp of the first content chunk − the server's write of
 *   it (how late the client stamped it: loopback, kernel, the client's loop); ITL error, every later
 *   chunk = measured gap − true gap. Also: ITLs off by > 1 ms, chunks that came in the same read as
 *   the one before (coalesced), client CPU (all threads, % of one core), engine ÷ baseline p99.
 * - The server stamps before and after each write; the hand-off to the kernel is in between. A write
 *   takes ~15 µs, the first of a step ~0.2–0.5 ms (on loopback the writer's syscall also wakes the
 *   idle client CPU; in a VM that is an IPI through the hypervisor). A chunk whose write took longer
 *   than --truth-width-ms (default 1 ms: the server was descheduled around it, which a shared VM does
 *   now and then) has no sharp truth and is left out, counted; its client stamp can even come
 *   before the server's.
 *
 * Run: node bin/run-ts.mjs bench/accuracy.bench.ts [--streams 16,256,1024] [--repeats 2]
 *   [--tokens 128] [--step-ms 20] [--clients baseline,engine] [--server-cpu 1] [--client-cpus 0|none]
 *   [--io-threads N] [--warmup-tokens 16] [--truth-width-ms 1]
 * Tables go to stderr, the JSON report to stdout.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  numArg,
  parseArgs,
  pct,
  sortedOf,
  type ClientResult,
  type Truth,
  type TruthSteps,
} from './accuracy/common.ts';

type ClientKind = 'baseline' | 'engine';

export interface AccuracyOptions {
  streams: number[];
  repeats: number;
  tokens: number;
  stepMs: number;
  clients: ClientKind[];
  /** CPU list for the server / clients (taskset -c); null = not pinned; undefined = automatic. */
  serverCpu?: string | null;
  clientCpus?: string | null;
  /** The engine's stream-I/O threads (TOKENSCOPE_IO_THREADS); undefined = its default. */
  ioThreads?: number;
  warmupTokens: number;
  /** A chunk whose server write took longer (server descheduled) has no sharp truth: left out. */
  truthWidthMs: number;
}

export const DEFAULT_ACCURACY: AccuracyOptions = {
  streams: [16, 256, 1024],
  repeats: 2,
  tokens: 128,
  stepMs: 20,
  clients: ['baseline', 'engine'],
  warmupTokens: 16,
  truthWidthMs: 1,
};

export function accuracyOptionsFromArgs(argv: readonly string[]): AccuracyOptions {
  const a = parseArgs(argv);
  const o: AccuracyOptions = { ...DEFAULT_ACCURACY };
  const s = a.get('streams');
  if (s) o.streams = s.split(',').map((x) => Math.max(1, Math.floor(Number(x))));
  if (o.streams.some((n) => !Number.isFinite(n))) throw new Error(`--streams: ${s}`);
  o.repeats = Math.max(1, Math.floor(numArg(a, 'repeats', o.repeats)));
  o.tokens = Math.max(2, Math.floor(numArg(a, 'tokens', o.tokens)));
  o.stepMs = numArg(a, 'step-ms', o.stepMs);
  o.warmupTokens = Math.max(0, Math.floor(numArg(a, 'warmup-tokens', o.warmupTokens)));
  o.truthWidthMs = numArg(a, 'truth-width-ms', o.truthWidthMs);
  const c = a.get('clients');
  if (c) {
    o.clients = c.split(',').map((x) => {
      if (x !== 'baseline' && x !== 'engine') throw new Error(`--clients: unknown client ${x}`);
      return x;
    });
  }
  const cpu = (name: string): string | null | undefined => {
    const v = a.get(name);
    return v === undefined ? undefined : v === 'none' ? null : v;
  };
  o.serverCpu = cpu('server-cpu');
  o.clientCpus = cpu('client-cpus');
  if (a.has('io-threads')) o.ioThreads = numArg(a, 'io-threads', 1);
  return o;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUN_TS = path.join(ROOT, 'bin', 'run-ts.mjs');

/** The CPUs this process may run on (Linux), else 0…n−1. */
function allowedCpus(): number[] {
  try {
    const m = /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) {
      const out: number[] = [];
      for (const part of m[1]!.split(',')) {
        const [lo, hi] = part.split('-').map(Number);
        for (let i = lo!; i <= (hi ?? lo!); i++) out.push(i);
      }
      if (out.length) return out;
    }
  } catch {
    // not Linux: fall through
  }
  return Array.from({ length: os.cpus().length }, (_, i) => i);
}

function pinning(o: AccuracyOptions): { server: string | null; client: string | null; note: string } {
  const hasTaskset = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
  const cpus = allowedCpus();
  if (!hasTaskset || cpus.length < 2) {
    return {
      server: null,
      client: null,
      note: hasTaskset
        ? `not pinned: only ${cpus.length} CPU allowed`
        : 'not pinned: taskset not available (server and clients share every core)',
    };
  }
  const server = o.serverCpu === undefined ? String(cpus[1]) : o.serverCpu;
  const client = o.clientCpus === undefined ? String(cpus[0]) : o.clientCpus;
  return {
    server,
    client,
    note: `server on CPU ${server ?? 'any (not pinned)'}, each client process (all its threads) on CPU ${client ?? 'any (not pinned)'}`,
  };
}

function command(cpu: string | null, script: string, args: string[]): [string, string[]] {
  const node = [process.execPath, RUN_TS, path.join(ROOT, script), ...args];
  return cpu === null ? [node[0]!, node.slice(1)] : ['taskset', ['-c', cpu, ...node]];
}

async function startServer(
  cpu: string | null,
  o: AccuracyOptions,
): Promise<{ child: ChildProcess; url: string }> {
  const [cmd, args] = command(cpu, 'bench/accuracy/ref-server.ts', [
    '--port',
    '0',
    '--step-ms',
    String(o.stepMs),
    '--tokens',
    String(o.tokens),
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('reference server did not start within 30 s')), 30_000);
    child.stdout!.on('data', (b: Buffer) => {
      buf += b.toString();
      const m = /listening (http:\/\/\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reference server exited (${code})`));
    });
  }).catch((e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });
  return { child, url };
}

function getTruth(url: string): Promise<Truth> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/__truth`, { agent: false, timeout: 15_000 }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as Truth);
        } catch (e) {
          reject(e as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('truth: no answer within 15 s')));
    req.on('error', reject);
  });
}

async function runClient(
  kind: ClientKind,
  url: string,
  streams: number,
  o: AccuracyOptions,
  cpu: string | null,
): Promise<ClientResult> {
  const out = path.join(os.tmpdir(), `tokenscope-accuracy-${process.pid}-${kind}-${streams}.json`);
  fs.rmSync(out, { force: true });
  // Bounded: the streams themselves, the warm-up, connecting N sockets, and a generous margin.
  const hardMs = 60_000 + 3 * (o.tokens + o.warmupTokens) * o.stepMs + 50 * streams;
  const [cmd, args] = command(cpu, `bench/accuracy/${kind}-client.ts`, [
    '--url',
    url,
    '--streams',
    String(streams),
    '--tokens',
    String(o.tokens),
    '--warmup-tokens',
    String(o.warmupTokens),
    '--timeout-ms',
    String(hardMs - 15_000),
    '--out',
    out,
  ]);
  const env = { ...process.env };
  if (kind === 'engine' && o.ioThreads !== undefined) env.TOKENSCOPE_IO_THREADS = String(o.ioThreads);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT, env });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`killed after ${Math.round(hardMs / 1000)} s`);
    }, hardMs);
    child.once('exit', (c, sig) => {
      clearTimeout(timer);
      resolve(c ?? String(sig));
    });
  });
  if (code !== 0 || !fs.existsSync(out))
    throw new Error(`${kind} client (${streams} streams) failed: ${code}\n${stderr.trim()}`);
  const r = JSON.parse(fs.readFileSync(out, 'utf8')) as ClientResult;
  fs.rmSync(out, { force: true });
  return r;
}

interface Samples {
  ttft: number[];
  itl: number[];
  over1: number;
  /** ITL pairs measured (truth certain), and left out (a chunk of the pair has an uncertain truth). */
  pairs: number;
  uncertain: number;
  ttftUncertain: number;
  /** Over every pair, truth certain or not (coalescing does not depend on the truth). */
  allPairs: number;
  coalesced: number;
  ok: number;
  failed: number;
  unmatched: number;
}

interface Stats {
  requests: number;
  ok: number;
  failed: number;
  unmatched: number;
  ttftErrP50Ms: number;
  ttftErrP99Ms: number;
  ttftErrMaxMs: number;
  ttftErrMinMs: number;
  itlAbsErrP50Ms: number;
  itlAbsErrP90Ms: number;
  itlAbsErrP99Ms: number;
  itlAbsErrMaxMs: number;
  /** Signed ITL error: a late chunk makes one gap too long (+) and the next too short (−). */
  itlErrP1Ms: number;
  itlErrP99Ms: number;
  itlPairs: number;
  itlOver1msPct: number;
  /** ITL pairs where the chunk came in the same read as the one before (gap measured 0). */
  coalescedPct: number;
  /** Chunks (TTFT) and pairs (ITL) left out: the server's write took > truthWidthMs (descheduled). */
  uncertainTruthPct: number;
  cpuPct: number;
}

function samplesOf(c: ClientResult, truth: Truth, T: number, maxWidthMs: number): Samples {
  const byRid = new Map(truth.requests.map((r) => [r.rid, r]));
  const s: Samples = {
    ttft: [],
    itl: [],
    over1: 0,
    pairs: 0,
    uncertain: 0,
    ttftUncertain: 0,
    allPairs: 0,
    coalesced: 0,
    ok: 0,
    failed: 0,
    unmatched: 0,
  };
  for (const r of c.requests) {
    if (!r.ok) {
      s.failed++;
      continue;
    }
    const g = r.rid === null ? undefined : byRid.get(r.rid);
    if (!g || g.chunks.length !== T || r.content.length !== T) {
      s.unmatched++;
      continue;
    }
    s.ok++;
    const w = g.widths;
    if (w[0]! <= maxWidthMs) s.ttft.push(r.content[0]! - g.chunks[0]!);
    else s.ttftUncertain++;
    for (let k = 1; k < T; k++) {
      s.allPairs++;
      if (r.sameRead[k]) s.coalesced++;
      if (w[k]! > maxWidthMs || w[k - 1]! > maxWidthMs) {
        s.uncertain++;
        continue;
      }
      const e = r.content[k]! - r.content[k - 1]! - (g.chunks[k]! - g.chunks[k - 1]!);
      s.itl.push(e);
      s.pairs++;
      if (Math.abs(e) > 1) s.over1++;
    }
  }
  return s;
}

/** How long the server's writes took (before → after stamp), µs. */
function writeWidths(t: Truth): { writeP50Us: number; writeP99Us: number } {
  const w = sortedOf(t.requests.flatMap((r) => r.widths));
  return { writeP50Us: Math.round(pct(w, 50) * 1000), writeP99Us: Math.round(pct(w, 99) * 1000) };
}

const r3 = (v: number): number => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);

function statsOf(s: Samples, requests: number, cpuPct: number): Stats {
  const tt = sortedOf(s.ttft);
  const signed = sortedOf(s.itl);
  const abs = sortedOf(s.itl.map(Math.abs));
  return {
    requests,
    ok: s.ok,
    failed: s.failed,
    unmatched: s.unmatched,
    ttftErrP50Ms: r3(pct(tt, 50)),
    ttftErrP99Ms: r3(pct(tt, 99)),
    ttftErrMaxMs: r3(pct(tt, 100)),
    ttftErrMinMs: r3(pct(tt, 0)),
    itlAbsErrP50Ms: r3(pct(abs, 50)),
    itlAbsErrP90Ms: r3(pct(abs, 90)),
    itlAbsErrP99Ms: r3(pct(abs, 99)),
    itlAbsErrMaxMs: r3(pct(abs, 100)),
    itlErrP1Ms: r3(pct(signed, 1)),
    itlErrP99Ms: r3(pct(signed, 99)),
    itlPairs: s.pairs,
    itlOver1msPct: s.pairs ? r3((100 * s.over1) / s.pairs) : NaN,
    coalescedPct: s.allPairs ? r3((100 * s.coalesced) / s.allPairs) : NaN,
    uncertainTruthPct: s.allPairs ? r3((100 * (s.uncertain + s.ttftUncertain)) / (s.allPairs + s.ok)) : NaN,
    cpuPct: Math.round(cpuPct),
  };
}

interface RunOut {
  repeat: number;
  stats: Stats;
  samples: Samples;
  cpuMs: number;
  wallMs: number;
  server: TruthSteps & { cpuPct: number; writeP50Us: number; writeP99Us: number };
  notes: string[];
  extra: Record<string, unknown>;
}

function fmt(v: number, w = 7): string {
  const digits = Number.isInteger(v) ? 0 : Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 10 ? 2 : 3;
  return (Number.isFinite(v) ? v.toFixed(digits) : '–').padStart(w);
}

function row(label: string, s: Stats): string {
  return (
    label.padEnd(14) +
    `${s.ok}/${s.requests}`.padStart(10) +
    ' │' +
    fmt(s.ttftErrP50Ms) +
    fmt(s.ttftErrP99Ms) +
    fmt(s.ttftErrMaxMs, 8) +
    ' │' +
    fmt(s.itlAbsErrP50Ms) +
    fmt(s.itlAbsErrP99Ms) +
    fmt(s.itlAbsErrMaxMs, 8) +
    ' │' +
    `${fmt(s.itlOver1msPct, 6)}%` +
    `${fmt(s.coalescedPct, 6)}%` +
    `${String(s.cpuPct).padStart(5)}%`
  );
}

const ratio = (a: number, b: number): number =>
  b > 0 && Number.isFinite(a) ? Math.round((100 * a) / b) / 100 : NaN;

export async function benchAccuracy(o: AccuracyOptions = DEFAULT_ACCURACY): Promise<Record<string, unknown>> {
  const log = (s: string): boolean => process.stderr.write(s + '\n');
  const pin = pinning(o);
  const { child: server, url } = await startServer(pin.server, o);
  const killServer = (): void => {
    if (server.exitCode === null) server.kill('SIGKILL');
  };
  process.once('exit', killServer);
  log(`accuracy: reference server ${url} · ${pin.note} · ${os.cpus().length} CPUs`);
  const loads: Record<string, unknown> = {};
  try {
    for (const N of o.streams) {
      const runs: Record<ClientKind, RunOut[]> = { baseline: [], engine: [] };
      const errors: string[] = [];
      for (let rep = 1; rep <= o.repeats; rep++) {
        const order = rep % 2 === 1 ? o.clients : [...o.clients].reverse();
        for (const kind of order) {
          log(`  ${N} streams · repeat ${rep}/${o.repeats} · ${kind} …`);
          try {
            await getTruth(url); // forget what came before
            const c = await runClient(kind, url, N, o, pin.client);
            const truth = await getTruth(url);
            const samples = samplesOf(c, truth, o.tokens, o.truthWidthMs);
            runs[kind].push({
              repeat: rep,
              stats: statsOf(samples, c.requests.length, c.cpuPct),
              samples,
              cpuMs: c.cpuMs,
              wallMs: c.wallMs,
              server: { ...truth.steps, cpuPct: truth.cpuPct, ...writeWidths(truth) },
              notes: c.notes,
              extra: c.extra,
            });
          } catch (e) {
            // One failed run (a client killed at its time limit, …) is reported; the others go on.
            const msg = `${kind} repeat ${rep}: ${(e as Error).message}`;
            errors.push(msg);
            log(`  failed: ${msg}`);
          }
          await new Promise((r) => setTimeout(r, 500)); // let the server close the last sockets
        }
      }
      // Every repeat's samples together.
      const pooled = (rs: RunOut[]): Stats | null => {
        if (rs.length === 0) return null;
        const sum = (k: keyof Samples): number => rs.reduce((a, r) => a + (r.samples[k] as number), 0);
        const all: Samples = {
          ttft: rs.flatMap((r) => r.samples.ttft),
          itl: rs.flatMap((r) => r.samples.itl),
          over1: sum('over1'),
          pairs: sum('pairs'),
          uncertain: sum('uncertain'),
          ttftUncertain: sum('ttftUncertain'),
          allPairs: sum('allPairs'),
          coalesced: sum('coalesced'),
          ok: sum('ok'),
          failed: sum('failed'),
          unmatched: sum('unmatched'),
        };
        const cpu = (100 * rs.reduce((a, r) => a + r.cpuMs, 0)) / rs.reduce((a, r) => a + r.wallMs, 0);
        return statsOf(
          all,
          rs.reduce((a, r) => a + r.stats.requests, 0),
          cpu,
        );
      };
      const pb = pooled(runs.baseline);
      const pe = pooled(runs.engine);
      const perRun = runs.engine.map((e) => {
        const b = runs.baseline.find((x) => x.repeat === e.repeat);
        return b
          ? {
              repeat: e.repeat,
              ttft: ratio(e.stats.ttftErrP99Ms, b.stats.ttftErrP99Ms),
              itl: ratio(e.stats.itlAbsErrP99Ms, b.stats.itlAbsErrP99Ms),
            }
          : null;
      });
      const ratios =
        pb && pe
          ? {
              ttftErrP99: ratio(pe.ttftErrP99Ms, pb.ttftErrP99Ms),
              itlAbsErrP99: ratio(pe.itlAbsErrP99Ms, pb.itlAbsErrP99Ms),
              perRepeat: perRun,
            }
          : null;

      const head = `${N} streams × ${o.stepMs} ms × ${o.tokens} tokens, ${o.repeats} repeat${o.repeats > 1 ? 's' : ''} (ms; TTFT error = client stamp − server write of the 1st content chunk; ITL error = measured − true gap)`;
      log('');
      log(head);
      log(
        'client        ok/reqs    │ TTFT err p50    p99     max │ |ITL err| p50  p99     max │  > 1 ms  coal.  CPU',
      );
      for (const kind of o.clients) {
        for (const r of runs[kind]) log(row(`${kind} #${r.repeat}`, r.stats));
      }
      for (const kind of o.clients) {
        const p = kind === 'baseline' ? pb : pe;
        if (p && o.repeats > 1) log(row(`${kind} all`, p));
      }
      if (ratios) {
        const pr = (k: 'ttft' | 'itl'): string => perRun.map((x) => (x ? `${x[k]}×` : '–')).join(', ');
        log(
          `engine ÷ baseline p99: TTFT error ${ratios.ttftErrP99}×` +
            (o.repeats > 1 ? ` (repeats ${pr('ttft')})` : '') +
            ` · |ITL error| ${ratios.itlAbsErrP99}×` +
            (o.repeats > 1 ? ` (repeats ${pr('itl')})` : ''),
        );
      }
      const all = [...runs.baseline, ...runs.engine];
      if (all.length) {
        const worst = (f: (r: RunOut) => number): string => fmt(Math.max(...all.map(f)), 0);
        log(
          `server (worst run): step spread p99 ${worst((r) => r.server.spanP99Ms)} ms · ` +
            `step start late p99 ${worst((r) => r.server.lateP99Ms)} ms · ` +
            `steps a whole step late ${worst((r) => r.server.behind)} · ` +
            `write p50 ${worst((r) => r.server.writeP50Us)} µs, p99 ${worst((r) => r.server.writeP99Us)} µs · ` +
            `writes the kernel did not take at once ${worst((r) => r.server.queuedWrites)} · ` +
            `left out, write took > ${o.truthWidthMs} ms ${worst((r) => r.stats.uncertainTruthPct)}% · ` +
            `CPU ${worst((r) => r.server.cpuPct)}%`,
        );
      }
      if (errors.length) log(`failed runs: ${errors.length}`);
      for (const kind of o.clients) {
        const eng = runs[kind];
        const notes = [...new Set(eng.flatMap((r) => r.notes))];
        if (notes.length) log(`${kind} notes: ${notes.join('; ')}`);
      }
      const sc = runs.engine.map((r) => r.extra.selfCheck as Record<string, unknown> | null);
      if (sc.length) {
        log(
          'engine self-check: ' +
            sc
              .map((s) => {
                const ioS = s?.io as Record<string, number> | null | undefined;
                return s
                  ? `main ELD p99 ${fmt(s.eventLoopDelayP99Ms as number, 0)} ms, ` +
                      (ioS
                        ? `I/O thread ×${ioS.threads} loop delay p99 ${fmt(ioS.loopDelayP99Ms!, 0)} ms, GC max ${fmt(ioS.gcMaxMs!, 0)} ms`
                        : 'stamping inline') +
                      (s.flagged ? ' (flagged)' : '')
                  : '–';
              })
              .join(' | '),
        );
      }

      loads[String(N)] = {
        streams: N,
        ...(pb ? { baseline: { ...pb, runs: runs.baseline.map(strip) } } : {}),
        ...(pe ? { engine: { ...pe, runs: runs.engine.map(strip) } } : {}),
        engineOverBaselineP99: ratios,
        ...(errors.length ? { errors } : {}),
      };
    }
  } finally {
    killServer();
    process.removeListener('exit', killServer);
  }
  return {
    stepMs: o.stepMs,
    tokensPerStream: o.tokens,
    repeats: o.repeats,
    pinning: pin.note,
    truthWidthMs: o.truthWidthMs,
    ioThreads: o.ioThreads ?? 'default',
    loads,
  };
}

function strip(r: RunOut): Record<string, unknown> {
  return {
    ...r.stats,
    wallMs: Math.round(r.wallMs),
    server: Object.fromEntries(Object.entries(r.server).map(([k, v]) => [k, r3(v)])),
    ...(r.notes.length ? { notes: r.notes } : {}),
    ...(r.extra.selfCheck ? { selfCheck: r.extra.selfCheck } : {}),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchAccuracy(accuracyOptionsFromArgs(process.argv.slice(2))), null, 2));
}
