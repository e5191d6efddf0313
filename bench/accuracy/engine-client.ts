/**
 * The accuracy bench's Tokenscope client: `tokenscope run`'s path, `runWorkload`, in a process of
 * its own. Workload: N requests at concurrency N, rate "inf", synthetic prompts (128 tokens in),
 * output length T with ignore_eos, keep-alive, a run file written (as the CLI does; to a temporary
 * file, removed after), no server-metrics watch (the reference server has no /metrics).
 *
 * Event times come from the run's lines, put on CLOCK_MONOTONIC:
 *   run clock zero (performance.now() domain) = header.clockZeroWall − performance.timeOrigin
 *   event = zero + line.sentMs + events.t[i] + (hrtime − performance.now() in this process)
 * Files without clockZeroWall / sentMs (older runners) fall back to the zero seen from
 * onRequestStart (performance.now() − startedMs) and startedMs, and say so in the notes.
 *
 * Run (the bench does): node bin/run-ts.mjs bench/accuracy/engine-client.ts --url URL
 *   --streams N --tokens T --timeout-ms MS --out FILE   (TOKENSCOPE_IO_THREADS as the CLI's --io-threads)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runWorkload } from '../../electron/runs/runner.ts';
import { engineConfigFromEnv } from '../../electron/engine/engine-config.ts';
import { configureEngine } from '../../electron/engine/io/io-engine.ts';
import { loadPrompts } from '../../electron/runs/prompts/prompts.ts';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { EV_COALESCED, EV_CONTENT } from '../../shared/request.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { hrMinusPerf, numArg, parseArgs, type ClientRequest, type ClientResult } from './common.ts';

// An entry point: the engine configuration from the environment (TOKENSCOPE_IO_THREADS, as the CLI's).
configureEngine(engineConfigFromEnv(process.env));
const args = parseArgs(process.argv.slice(2));
const url = args.get('url') ?? 'http://127.0.0.1:8000';
const streams = numArg(args, 'streams', 16);
const tokens = numArg(args, 'tokens', 128);
const timeoutMs = numArg(args, 'timeout-ms', 120_000);
const out = args.get('out');
const notes: string[] = [];

const warmupStreams = numArg(args, 'warmup-streams', Math.min(streams, 16));
const warmupTokens = numArg(args, 'warmup-tokens', 16);

function workloadOf(n: number, outLen: number) {
  const parsed = parseWorkload({
    name: `accuracy bench ${n}×${outLen}`,
    requests: n,
    maxConcurrency: n,
    rate: 'inf',
    prompts: { type: 'synthetic', inputLen: 128, outputLen: outLen, force: 'ignore_eos' },
    timeoutMs: Math.round(timeoutMs),
    // The reference server logs every stream it writes, matched to the client's in order: no
    // request outside the measured ones (the warm-up below is a run of its own).
    testRequest: false,
  });
  if (!parsed.ok) throw new Error(`workload: ${JSON.stringify(parsed.error)}`);
  return parsed.value;
}
const target = { url, dialect: 'openai-chat', model: 'tokenscope-ref' } as const;

// Warm-up, a run of its own (short streams): starts the stream-I/O thread and compiles the code
// paths, so neither lands in the measured run. The baseline does the same.
if (warmupStreams > 0) {
  const ww = workloadOf(warmupStreams, warmupTokens);
  const wr = await runWorkload({
    workload: ww,
    target,
    prompts: await loadPrompts(ww.prompts, ww.seed, process.cwd()),
    serverMetrics: null,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (wr.summary.vllm.completed !== warmupStreams)
    notes.push(`warm-up: ${wr.summary.vllm.completed} of ${warmupStreams} completed`);
}

const w = workloadOf(streams, tokens);
const prompts = await loadPrompts(w.prompts, w.seed, process.cwd());
const runFile = path.join(os.tmpdir(), `tokenscope-accuracy-${process.pid}-${Date.now()}.jsonl`);

const before = hrMinusPerf();
const zeroSeen: number[] = [];
let cpuAtEnd: NodeJS.CpuUsage | null = null;
let perfAtEnd = 0;
let done = 0;
const ac = new AbortController();
const hardStop = setTimeout(() => ac.abort(), timeoutMs + 10_000);
const perf0 = performance.now();
const cpu0 = process.cpuUsage();
const result = await runWorkload({
  keepLines: true, // every event time, against the server's log
  workload: w,
  target,
  prompts,
  outFile: runFile,
  serverMetrics: null,
  signal: ac.signal,
  onRequestStart: (s) => {
    if (!s.warmup) zeroSeen.push(performance.now() - s.startedMs);
  },
  onRequestDone: (line) => {
    if (line.warmup) return;
    // The streaming part ends with the last request's bookkeeping; the summary after it is not timed.
    if (++done === streams) {
      perfAtEnd = performance.now();
      cpuAtEnd = process.cpuUsage(cpu0);
    }
  },
});
clearTimeout(hardStop);
if (!cpuAtEnd) {
  perfAtEnd = performance.now();
  cpuAtEnd = process.cpuUsage(cpu0);
  notes.push('not every request finished: CPU measured to the end of runWorkload');
}
// A stream held back (the measuring side behind, engine/io/backlog.ts) has its next reads stamped late.
const io = result.summary.selfCheck?.io;
if (io && io.holds > 0)
  notes.push(
    `streams held back ${io.holds} times, ${io.heldMs.toFixed(1)} ms in all, max ${io.heldMaxMs.toFixed(1)} ms`,
  );
const after = hrMinusPerf();
if (Math.abs(after.offsetMs - before.offsetMs) > 0.01)
  notes.push(`hrtime − performance.now() moved by ${(after.offsetMs - before.offsetMs).toFixed(4)} ms`);
fs.rmSync(runFile, { force: true });

let zero: number;
if (result.header.clockZeroWall !== undefined) {
  zero = result.header.clockZeroWall - performance.timeOrigin;
  // startedMs is taken just before fireRequest; seen from the callback it can only be later.
  const seen = Math.min(...zeroSeen);
  if (Number.isFinite(seen) && Math.abs(seen - zero) > 1)
    notes.push(`run clock zero: header ${zero.toFixed(3)} vs seen ${seen.toFixed(3)} (perf ms)`);
} else {
  zero = Math.min(...zeroSeen);
  notes.push('header has no clockZeroWall: run clock zero taken from onRequestStart');
}
const off = before.offsetMs;
let noSent = 0;

function toRequest(line: RunRequestLine): ClientRequest {
  if (line.sentMs === undefined) noSent++;
  const base = zero + (line.sentMs ?? line.startedMs) + off;
  const { t, f } = line.events;
  const content: number[] = [];
  const sameRead: number[] = [];
  for (let i = 0; i < t.length; i++) {
    if (!(f[i]! & EV_CONTENT)) continue;
    content.push(base + t[i]!);
    // Same read as the event before: both flagged coalesced and stamped alike (one read, one stamp).
    sameRead.push(i > 0 && f[i]! & EV_COALESCED && f[i - 1]! & EV_COALESCED && t[i] === t[i - 1] ? 1 : 0);
  }
  const ok = line.status === 'ok' && content.length === tokens;
  return {
    rid: line.serverRequestId,
    ok,
    ...(ok ? {} : { error: line.error?.message ?? `${content.length} content events, expected ${tokens}` }),
    content,
    sameRead,
  };
}

const requests = (result.lines ?? []).filter((l) => !l.warmup).map(toRequest);
if (noSent)
  notes.push(`${noSent} lines without sentMs: startedMs used (misses the hand-off to the I/O thread)`);
const wallMs = perfAtEnd - perf0;
const cpuMs = (cpuAtEnd.user + cpuAtEnd.system) / 1000;
const sc = result.summary.selfCheck;
const res: ClientResult = {
  client: 'engine',
  streams,
  tokens,
  wallMs,
  cpuMs,
  cpuPct: (100 * cpuMs) / wallMs,
  requests,
  notes,
  extra: {
    selfCheck: sc ?? null,
    clockOffsetWidthUs: Math.round(before.widthMs * 1e6) / 1e3,
    cancelled: result.cancelled,
    callbackErrors: result.callbackErrors,
  },
};
if (out) fs.writeFileSync(out, JSON.stringify(res));
else process.stdout.write(JSON.stringify(res) + '\n');
process.exit(0);
