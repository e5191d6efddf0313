/**
 * The accuracy bench's options (bench/accuracy.bench.ts): what it measures, where it pins its
 * processes, and how they are read from the command line.
 */
import { numArg, parseArgs } from './common.ts';

export type ClientKind = 'baseline' | 'engine';

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
