/**
 * The engine's configuration, built once at each entry point (electron/main.ts, the CLI and the
 * web mode it serves, tests) and handed to the I/O engine, which passes it down: to its threads
 * (the HTTP client, the backlog bound), to each request (the idle timeout, the record limits). No
 * module of engine/ or runs/ reads the environment (a lint rule keeps it so: eslint.config.js);
 * the entry point reads it, once, with engineConfigFromEnv. The measuring thread's step back in
 * priority happens only when the entry point asks (`lowerPriority`): a test or a library caller
 * that makes an engine keeps its own priority.
 */
import os from 'node:os';
import { MAX_IO_THREADS } from './io/io-limits.ts';

/** Plain HTTP through the hand-written HTTP/1.1 driver, or through Node's client (https always is). */
export type HttpClient = 'raw' | 'node';

export interface EngineLimits {
  /** An event (or NDJSON line) that grows past this without ending fails as protocol/event-too-large. */
  maxEventChars: number;
  /** Text a record keeps (raw event data, output, each event's text), characters. */
  maxRecordTextChars: number;
  /** Framed units a record takes before the request stops as client/record-limit. */
  maxRecordEvents: number;
  /** No byte for this long fails a request as client/idle-timeout unless it sets its own; 0 never. */
  idleTimeoutMs: number;
  /** A request's socket stops being read while its undecoded backlog is over this (io/backlog.ts). */
  backlogHighBytes: number;
}

export interface EngineConfig {
  /** Stream-I/O threads (0: the driver runs inline on the measuring thread). */
  ioThreads: number;
  httpClient: HttpClient;
  /** Linux: the measuring thread steps back 10 nice steps (at most 19) once I/O threads exist (io/io-threads.ts). */
  lowerPriority: boolean;
  limits: EngineLimits;
  /** The app's request history keeps at most this much of its records (app/request-history.ts). */
  historyMaxBytes: number;
}

const MiB = 1024 * 1024;

/** The limits with no override (docs/security.md states the bound they give). */
export const DEFAULT_LIMITS: Readonly<EngineLimits> = Object.freeze({
  maxEventChars: 8 * MiB,
  maxRecordTextChars: 64 * MiB,
  maxRecordEvents: 2_000_000,
  idleTimeoutMs: 60_000,
  backlogHighBytes: 1024 * 1024,
});

/** The request history's bound with no override (256 MiB; TOKENSCOPE_HISTORY_MB). */
export const DEFAULT_HISTORY_MAX_BYTES = 256 * MiB;

/** One stream-I/O thread per core but one, at least one, at most MAX_IO_THREADS. */
function defaultIoThreads(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(MAX_IO_THREADS, cores - 1));
}

/** The configuration with nothing overridden and no priority change (tests, library callers). */
export function defaultEngineConfig(over: Partial<EngineConfig> = {}): EngineConfig {
  return {
    ioThreads: defaultIoThreads(),
    httpClient: 'raw',
    lowerPriority: false,
    historyMaxBytes: DEFAULT_HISTORY_MAX_BYTES,
    ...over,
    limits: { ...DEFAULT_LIMITS, ...over.limits },
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/** A positive number from the environment, or null (unset, empty, zero or not a number). */
function positive(env: Env, name: string): number | null {
  const n = Number(env[name]);
  return env[name] && Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * What an entry point runs with: the environment's overrides (docs/load.md, docs/security.md) on
 * the defaults, the measuring thread stepping back unless TOKENSCOPE_NO_NICE is set.
 */
export function engineConfigFromEnv(env: Env): EngineConfig {
  const limits = { ...DEFAULT_LIMITS };
  const eventMb = positive(env, 'TOKENSCOPE_MAX_EVENT_MB');
  if (eventMb !== null) limits.maxEventChars = eventMb * MiB;
  const recordMb = positive(env, 'TOKENSCOPE_MAX_RECORD_MB');
  if (recordMb !== null) limits.maxRecordTextChars = recordMb * MiB;
  limits.maxRecordEvents = positive(env, 'TOKENSCOPE_MAX_EVENTS') ?? limits.maxRecordEvents;
  const backlogKb = positive(env, 'TOKENSCOPE_IO_BACKLOG_KB');
  if (backlogKb !== null) limits.backlogHighBytes = backlogKb * 1024;
  const idle = env.TOKENSCOPE_IDLE_TIMEOUT_S;
  if (idle !== undefined && Number.isFinite(Number(idle)))
    limits.idleTimeoutMs = Math.max(0, Number(idle)) * 1000;
  const threads = env.TOKENSCOPE_IO_THREADS;
  return {
    ioThreads:
      threads !== undefined && threads !== '' && Number.isInteger(Number(threads))
        ? Math.max(0, Math.min(MAX_IO_THREADS, Number(threads)))
        : defaultIoThreads(),
    httpClient: env.TOKENSCOPE_HTTP_CLIENT === 'node' ? 'node' : 'raw',
    lowerPriority: !env.TOKENSCOPE_NO_NICE,
    limits,
    historyMaxBytes: (positive(env, 'TOKENSCOPE_HISTORY_MB') ?? DEFAULT_HISTORY_MAX_BYTES / MiB) * MiB,
  };
}
