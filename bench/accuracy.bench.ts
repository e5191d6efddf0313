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
import os from 'node:os';
import {
  accuracyOptionsFromArgs,
  DEFAULT_ACCURACY,
  type AccuracyOptions,
  type ClientKind,
} from './accuracy/options.ts';
import { getTruth, pinning, runClient, startServer } from './accuracy/processes.ts';
import { loadJson, runOutOf, summarizeLoad, type LoadResult, type RunOut } from './accuracy/stats.ts';
import { log, printLoad } from './accuracy/tables.ts';
import { errorMessage } from '../shared/result.ts';

export { accuracyOptionsFromArgs, DEFAULT_ACCURACY, type AccuracyOptions };

/** Where one load's client runs go: the server's URL, the clients' CPUs, the options. */
interface LoadContext {
  url: string;
  clientCpu: string | null;
  o: AccuracyOptions;
}

/** Every repeat of every client at N streams, the order alternating between repeats. */
async function measureLoad(N: number, ctx: LoadContext): Promise<LoadResult> {
  const { url, clientCpu, o } = ctx;
  const runs: Record<ClientKind, RunOut[]> = { baseline: [], engine: [] };
  const errors: string[] = [];
  for (let rep = 1; rep <= o.repeats; rep++) {
    const order = rep % 2 === 1 ? o.clients : [...o.clients].reverse();
    for (const kind of order) {
      log(`  ${N} streams · repeat ${rep}/${o.repeats} · ${kind} …`);
      try {
        await getTruth(url); // forget what came before
        const c = await runClient(kind, url, N, o, clientCpu);
        const truth = await getTruth(url);
        runs[kind].push(runOutOf(rep, c, truth, o.tokens, o.truthWidthMs));
      } catch (e) {
        // One failed run (a client killed at its time limit, …) is reported; the others go on.
        const msg = `${kind} repeat ${rep}: ${errorMessage(e)}`;
        errors.push(msg);
        log(`  failed: ${msg}`);
      }
      await new Promise((r) => setTimeout(r, 500)); // let the server close the last sockets
    }
  }
  return summarizeLoad(N, runs, errors);
}

export async function benchAccuracy(o: AccuracyOptions = DEFAULT_ACCURACY): Promise<Record<string, unknown>> {
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
      const load = await measureLoad(N, { url, clientCpu: pin.client, o });
      printLoad(load, o);
      loads[String(N)] = loadJson(load);
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

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchAccuracy(accuracyOptionsFromArgs(process.argv.slice(2))), null, 2));
}
