/**
 * The built-in simulator in a thread of its own (sim-worker.ts), so that its work — the engine
 * loop, JSON, socket writes — never delays the event loop that timestamps the client's streams.
 * The app (electron/app/core.ts) starts it this way; the CLI's `tokenscope sim` and the tests that
 * want the simulator in-process keep startSim.
 *
 *   const sim = await startSimThread({ port: 0 });   // a SimServer: url, port, options, close()
 *   await sim.fetchState();                          // exact state, asked from the thread
 *   await sim.close();                               // the thread exits
 *
 * What crosses the thread boundary:
 * - options go in as data; `log` (a function) stays here and receives the thread's lines by message;
 * - state(): the sim thread writes its SimState into shared memory every STATE_EVERY_MS (and
 *   before answering fetchState), so reading it costs this thread no message at all — the
 *   speculative counters and the disaggregated mode's truth included, as an in-process one has them;
 * - groundTruth(): with options.groundTruth on, the thread sends new records every
 *   GROUND_TRUTH_EVERY_MS; fetchGroundTruth() asks for all of them now.
 * A failure to start (port in use, a bad replay file, the thread crashing) rejects the start with
 * the reason; the start never waits longer than START_TIMEOUT_MS.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/spawn.ts';
import type {
  EndReason,
  GroundTruthRecord,
  ResolvedSimOptions,
  SimOptions,
  SimServer,
  SimState,
} from './types.ts';
import { errorMessage } from '../../shared/result.ts';
import type { SpecCounts } from './spec-decode.ts';
import type { DisaggTruth } from './metrics-disagg.ts';

export const STATE_EVERY_MS = 50;
export const GROUND_TRUTH_EVERY_MS = 100;
const START_TIMEOUT_MS = 30_000;
/** close(): how long the thread gets to close its server and exit before it is terminated. */
const CLOSE_TIMEOUT_MS = 5_000;

// ---- protocol (sim-worker.ts speaks it too) ----

export interface SimThreadInput {
  options: Omit<SimOptions, 'log'>;
  /** Forward log lines (the caller gave a log function). */
  log: boolean;
  /** Where the thread publishes its state (see SharedState). */
  state: SharedArrayBuffer;
}

export type ToSimThread =
  { op: 'close' } | { op: 'state'; token: number } | { op: 'groundTruth'; token: number };

export type FromSimThread =
  | { op: 'ready'; url: string; port: number; options: Omit<ResolvedSimOptions, 'log'> }
  | { op: 'failed'; message: string; code: string | null }
  | { op: 'log'; line: string }
  | { op: 'state'; token: number; state: SimState }
  | { op: 'groundTruth'; token: number; records: GroundTruthRecord[] }
  | { op: 'newGroundTruth'; records: GroundTruthRecord[] }
  | { op: 'closed' };

// ---- SimState in shared memory: a sequence counter (odd while written), then the numbers ----

const END_REASONS: readonly EndReason[] = ['stop', 'length', 'abort', 'error'];
const SCALARS = [
  'running',
  'waiting',
  'kvCacheUsage',
  'kvReservedTokens',
  'steps',
  'requests',
  'promptTokens',
  'generationTokens',
  'prefixCacheQueries',
  'prefixCacheHits',
  'activeStreams',
] as const satisfies readonly (keyof SimState)[];
/** After the scalars and the end reasons: the GPUs' joules, NaN for none. */
const ENERGY_AT = SCALARS.length + END_REASONS.length;
/**
 * Then the speculative counters (NaN first: off): drafts, draft tokens, accepted, discarded, k,
 * and k per-position counts (k ≤ MAX_SPEC_K, as sim/spec-decode.ts resolveSpec clamps it).
 */
const SPEC_AT = ENERGY_AT + 1;
const SPEC_FIELDS = ['drafts', 'draftTokens', 'accepted', 'discarded'] as const;
const MAX_SPEC_K = 16;
/** Then the disaggregated mode's truth (NaN first: off); null minimum and maximum are NaN. */
const DISAGG_AT = SPEC_AT + SPEC_FIELDS.length + 1 + MAX_SPEC_K;
const DISAGG_FIELDS = [
  'transfers',
  'transferMsSum',
  'inTransfer',
  'maxInTransfer',
  'minMs',
  'maxMs',
] as const satisfies readonly (keyof DisaggTruth)[];
const STATE_NUMBERS = DISAGG_AT + DISAGG_FIELDS.length;

function sharedStateBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(8 + STATE_NUMBERS * 8);
}

export class SharedState {
  private readonly seq: Int32Array;
  private readonly nums: Float64Array;

  constructor(buf: SharedArrayBuffer) {
    this.seq = new Int32Array(buf, 0, 1);
    this.nums = new Float64Array(buf, 8, STATE_NUMBERS);
  }

  /** The sim thread only (a single writer). */
  write(s: SimState): void {
    Atomics.add(this.seq, 0, 1);
    SCALARS.forEach((k, i) => (this.nums[i] = s[k]));
    END_REASONS.forEach((r, i) => (this.nums[SCALARS.length + i] = s.finished[r]));
    this.nums[ENERGY_AT] = s.gpuEnergyJ ?? NaN;
    this.nums.fill(NaN, SPEC_AT);
    const sd = s.specDecode;
    if (sd) {
      SPEC_FIELDS.forEach((k, i) => (this.nums[SPEC_AT + i] = sd[k]));
      const k = Math.min(sd.perPosition.length, MAX_SPEC_K);
      this.nums[SPEC_AT + SPEC_FIELDS.length] = k;
      for (let i = 0; i < k; i++) this.nums[SPEC_AT + SPEC_FIELDS.length + 1 + i] = sd.perPosition[i]!;
    }
    const dg = s.disagg;
    if (dg) DISAGG_FIELDS.forEach((k, i) => (this.nums[DISAGG_AT + i] = dg[k] ?? NaN));
    Atomics.add(this.seq, 0, 1);
  }

  read(): SimState {
    let v = Array.from(this.nums);
    // Retry while a write is under way (bounded: a thread terminated mid-write never finishes it).
    for (let tries = 0; tries < 10_000; tries++) {
      const before = Atomics.load(this.seq, 0);
      v = Array.from(this.nums);
      if (before % 2 === 0 && Atomics.load(this.seq, 0) === before) break;
    }
    const s = Object.fromEntries(SCALARS.map((k, i) => [k, v[i] ?? 0])) as Omit<
      SimState,
      'finished' | 'gpuEnergyJ' | 'specDecode' | 'disagg' | 'pooling'
    >;
    const energy = v[ENERGY_AT] ?? NaN;
    const finished = Object.fromEntries(
      END_REASONS.map((r, i) => [r, v[SCALARS.length + i] ?? 0]),
    ) as SimState['finished'];
    return {
      ...s,
      finished,
      gpuEnergyJ: Number.isNaN(energy) ? null : energy,
      specDecode: specOf(v),
      disagg: disaggOf(v),
      pooling: { passes: 0, served: 0 },
    };
  }
}

/** The speculative counters as the sim thread wrote them, or null (off). */
function specOf(v: readonly number[]): SpecCounts | null {
  if (Number.isNaN(v[SPEC_AT] ?? NaN)) return null;
  const k = v[SPEC_AT + SPEC_FIELDS.length] ?? 0;
  const from = SPEC_AT + SPEC_FIELDS.length + 1;
  const counts = Object.fromEntries(SPEC_FIELDS.map((f, i) => [f, v[SPEC_AT + i] ?? 0])) as Omit<
    SpecCounts,
    'perPosition'
  >;
  return { ...counts, perPosition: v.slice(from, from + k) };
}

/** The disaggregated mode's truth as the sim thread wrote it, or null (off). */
function disaggOf(v: readonly number[]): DisaggTruth | null {
  if (Number.isNaN(v[DISAGG_AT] ?? NaN)) return null;
  const at = (i: number): number | null => {
    const x = v[DISAGG_AT + i] ?? NaN;
    return Number.isNaN(x) ? null : x;
  };
  const [transfers, transferMsSum, inTransfer, maxInTransfer, minMs, maxMs] = DISAGG_FIELDS.map((_, i) =>
    at(i),
  );
  return {
    transfers: transfers ?? 0,
    transferMsSum: transferMsSum ?? 0,
    inTransfer: inTransfer ?? 0,
    maxInTransfer: maxInTransfer ?? 0,
    minMs: minMs ?? null,
    maxMs: maxMs ?? null,
  };
}

// ---- the main-thread side ----

export interface SimThreadServer extends SimServer {
  /** The state as last published by the thread (at most STATE_EVERY_MS old). */
  state(): SimState;
  /** The records the thread has sent so far (at most GROUND_TRUTH_EVERY_MS behind). */
  groundTruth(): GroundTruthRecord[];
  /** The state right now, asked from the thread. */
  fetchState(): Promise<SimState>;
  /** Every ground-truth record so far, asked from the thread. */
  fetchGroundTruth(): Promise<GroundTruthRecord[]>;
  readonly threadId: number;
  /** Resolves with the thread's exit code once it has exited. */
  readonly exited: Promise<number>;
}

class SimThreadError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'SimThreadError';
  }
}

export function startSimThread(opts: SimOptions = {}): Promise<SimThreadServer> {
  const { log, ...options } = opts;
  const buf = sharedStateBuffer();
  const input: SimThreadInput = { options, log: log !== undefined, state: buf };
  let worker: Worker;
  try {
    worker = startWorker('sim-worker', input);
  } catch (e) {
    return Promise.reject(new SimThreadError(`could not start the simulator thread: ${errorMessage(e)}`));
  }
  const shared = new SharedState(buf);
  const records: GroundTruthRecord[] = [];
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  let nextToken = 1;
  let exitCode: number | null = null;
  let crash: Error | null = null;
  const exited = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      exitCode = code;
      const err = crash ?? new SimThreadError(`the simulator thread exited (code ${code})`);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      resolve(code);
    }),
  );
  const ask = <T>(msg: ToSimThread & { token: number }): Promise<T> => {
    if (exitCode !== null) return Promise.reject(new SimThreadError('the simulator thread has exited'));
    return new Promise<T>((resolve, reject) => {
      pending.set(msg.token, { resolve: resolve as (v: never) => void, reject });
      worker.postMessage(msg);
    });
  };

  return new Promise<SimThreadServer>((resolve, reject) => {
    let started = false;
    const fail = (err: Error): void => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      reject(err);
      void worker.terminate();
    };
    const timer = setTimeout(
      () => fail(new SimThreadError(`the simulator thread did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    worker.on('error', (err) => {
      crash = new SimThreadError(`the simulator thread failed: ${err.message}`);
      if (started) log?.(`sim: ${crash.message}`);
      fail(crash);
    });
    worker.once('exit', (code) =>
      fail(new SimThreadError(`the simulator thread exited (code ${code}) before it was listening`)),
    );
    worker.on('message', (m: FromSimThread) => {
      switch (m.op) {
        case 'log':
          log?.(m.line);
          break;
        case 'failed':
          fail(new SimThreadError(m.message, m.code));
          break;
        case 'newGroundTruth':
          for (const r of m.records) records.push(r);
          break;
        case 'state':
        case 'groundTruth': {
          const p = pending.get(m.token);
          pending.delete(m.token);
          if (m.op === 'groundTruth') records.splice(0, records.length, ...m.records);
          p?.resolve((m.op === 'state' ? m.state : m.records.slice()) as never);
          break;
        }
        case 'ready': {
          if (started) break;
          started = true;
          clearTimeout(timer);
          let closing: Promise<void> | null = null;
          resolve({
            url: m.url,
            port: m.port,
            options: { ...m.options, log: log ?? (() => {}) },
            threadId: worker.threadId,
            exited,
            state: () => shared.read(),
            groundTruth: () => records.slice(),
            fetchState: () => ask<SimState>({ op: 'state', token: nextToken++ }),
            fetchGroundTruth: () => ask<GroundTruthRecord[]>({ op: 'groundTruth', token: nextToken++ }),
            close: () =>
              (closing ??= (async () => {
                if (exitCode !== null) return;
                worker.postMessage({ op: 'close' } satisfies ToSimThread);
                const t = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
                await exited;
                clearTimeout(t);
              })()),
          });
          break;
        }
        case 'closed':
          break;
      }
    });
  });
}
