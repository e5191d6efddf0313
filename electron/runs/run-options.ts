/**
 * What a load run is given (its workload, target, prompts, callbacks) and what it gives back, and
 * the run file's header made from it.
 */
import type { MetricsEndpoint } from '../../shared/metrics/roles.ts';
import { TOKENSCOPE_VERSION } from '../platform/build-info.ts';
import { wallNow } from '../engine/clock.ts';
import type { RequestRecord } from '../../shared/record.ts';
import { type ArrivalSpec } from '../../shared/runs/workload/arrivals.ts';
import {
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  type RunHeader,
  type RunRepeat,
  type RunRequestLine,
} from '../../shared/runs/file/line-schema.ts';
import { type RunSummary } from '../../shared/runs/summary/schema.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import type { RunProgress, RunRequestStart } from '../../shared/runs/live/progress-types.ts';
import type { RunShardInfo } from '../../shared/runs/shard/schema.ts';
import { arrivalProcessOf, rateOf, type Workload } from '../../shared/runs/workload/workload.ts';
import type { PromptProvider } from './prompts/items.ts';
import { publicTarget, type RunTargetSpec } from './request-spec.ts';
import type { ScrapeTarget } from '../metrics/scraper.ts';
import type { SpanSource } from './server-spans.ts';

export interface RunOptions {
  workload: Workload;
  target: RunTargetSpec;
  prompts: PromptProvider;
  /** Run file to create (must not exist); null/absent = no file. */
  outFile?: string | null;
  name?: string | null;
  runId?: string;
  /** One of N repeats of this workload (written into the header). */
  repeat?: RunRepeat;
  /** One shard of the workload (`--shard I/N`): sends request i when i mod N = I (written into the header). */
  shard?: RunShardInfo;
  /**
   * Start the measured part at this instant of this machine's clock (performance.timeOrigin-based
   * epoch ms; --start-at moved by the clock offset), waiting for it; StartMissedError when it has
   * passed by more than a small tolerance.
   */
  startAtLocalMs?: number;
  signal?: AbortSignal;
  tokenscopeVersion?: string;
  /** How often onProgress fires (default 250 ms), plus once at the end. */
  progressIntervalMs?: number;
  onProgress?: (p: RunProgress) => void;
  /** The header is written (the run file exists): called once, before any other callback. */
  onStarted?: (header: RunHeader) => void;
  onRequestStart?: (s: RunRequestStart) => void;
  /** Every socket read that completed events, straight from the engine (live swimlanes). */
  onRequestEvents?: (id: string, rec: RequestRecord, firstNewEvent: number) => void;
  onRequestDone?: (line: RunRequestLine, rec: RequestRecord) => void;
  /**
   * Watch the server's own metrics through the run (its /metrics, or a Prometheus): a baseline
   * scrape before the clock starts, one a second, a last one after; summed up in summary.server.
   */
  serverMetrics?: ScrapeTarget | null;
  /** The target's telemetry endpoints (dcgm-exporter): GPU energy and joules per output token. */
  telemetryUrls?: readonly string[];
  /** A disaggregated deployment's role endpoints (prefill, decode, router): summary.server.roles. */
  metricsEndpoints?: readonly MetricsEndpoint[];
  /**
   * The server's spans (an OTLP receiver, run --otlp-listen): joined to the requests at the end
   * into the file's `spans` line and summary.serverPhases (server-spans.ts).
   */
  spans?: SpanSource | null;
  /** How long the end waits for the last spans (default server-spans.ts DEFAULT_SPAN_WAIT_MS). */
  spanWaitMs?: number;
  /**
   * Keep every request line until the end and return them (`RunResult.lines`): sweeps and tests.
   * Without it a finished request's line goes to the file and into the summary's accumulator
   * (shared/runs/summary/run-accumulator.ts) and is not kept: memory stays flat in the number of
   * finished requests.
   */
  keepLines?: boolean;
  /**
   * Nothing more is sent from this process after the run (the CLI's last run): once the last
   * request has ended and the I/O threads' loop figures are read, the process's engine closes
   * (io-engine.ts; its threads end), before the summary is built, so the run's end does not hold both.
   */
  releaseIo?: boolean;
  /** Also summarize the run under this preset's rules as requests finish (`run --json`: vLLM's). */
  alsoUnder?: DefinitionsId;
}

export interface RunResult {
  header: RunHeader;
  /** Every request line, warm-up included, in completion order; null unless `keepLines`. */
  lines: RunRequestLine[] | null;
  summary: RunSummary;
  /** The summary under `alsoUnder`'s rules (rederive.ts `rederiveRun` of the same lines); null without. */
  rederived: RunSummary | null;
  path: string | null;
  cancelled: boolean;
  /** The run file could not be written completely (the run itself went on). */
  fileError: string | null;
  /** A callback (onProgress, onRequest…) threw; the run went on. The first few messages. */
  callbackErrors: string[];
}

function tokenscopeVersion(): string {
  return TOKENSCOPE_VERSION;
}

export function arrivalSpecOf(w: Workload): ArrivalSpec {
  return {
    rate: rateOf(w),
    process: arrivalProcessOf(w),
    burstiness: w.burstiness,
    rampUp: w.rampUp ?? null,
    seed: w.seed,
    normalize: w.normalizeSchedule,
  };
}

/**
 * Measured requests to send: the workload's count; a trace replay sends its rows, at most that
 * many (null: a duration run with no count).
 */
export function totalOf(w: Workload, prompts: PromptProvider): number | null {
  const n = prompts.schedule?.length;
  if (n === undefined) return w.requests ?? null;
  return Math.min(n, w.requests ?? n);
}

/** The run file's header as the run opens (clockZeroWall and testRequest are added later). */
export function runHeaderOf(o: RunOptions, runId: string): RunHeader {
  const w = o.workload;
  const { target: _omit, ...workloadNoTarget } = w;
  const wall = wallNow();
  return {
    type: 'header',
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    runId,
    name: o.name ?? w.name ?? null,
    workload: workloadNoTarget,
    target: publicTarget(o.target),
    tokenscopeVersion: o.tokenscopeVersion ?? tokenscopeVersion(),
    nodeVersion: process.version,
    platform: `${process.platform}-${process.arch}`,
    startedAtWall: wall,
    startedAt: new Date(wall).toISOString(),
    ...(o.repeat ? { repeat: o.repeat } : {}),
    ...(o.shard ? { shard: o.shard } : {}),
  };
}
/** The run was to start at a set time (--start-at) and got there too late (warm-up ran long). */
export class StartMissedError extends Error {
  constructor(readonly lateMs: number) {
    super(
      `the start time passed ${(lateMs / 1000).toFixed(3)} s before the run was ready (test request and warm-up took longer): give a later --start-at`,
    );
  }
}
