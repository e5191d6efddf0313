/**
 * The load-run part of the contract (shared/api.ts): what the UI sends to start a run, what it
 * gets back when it opens one, and the live events of a running run. Plain JSON-able data.
 *
 * Runs are addressed by a `key`: the run file's name relative to the core's runs folder
 * (`20261123-101500-ab12cd.jsonl`, or `imported/<file>#<i>` for the i-th result of an imported
 * file). The core never takes a path from the UI: keys are checked against the folder.
 */
import { z } from 'zod';
import { DIALECT_IDS } from './dialects.ts';
import type { RunRepeat, RunHeader, RunRequestLine } from './runs/file/line-schema.ts';
import type { RequestOutcome } from './runs/summary/outcome.ts';
import type { RunSummary } from './runs/summary/schema.ts';
import type { RunRequestStart } from './runs/live/progress-types.ts';

export const runKey = z
  .string()
  .min(1)
  .max(400)
  .regex(/^(imported\/)?[A-Za-z0-9._-]+(#\d{1,4})?$/, 'not a run key');

/** The most repeats of one workload: the app's run form, the contract and the CLI's --repeat. */
export const MAX_REPEATS = 100;

export const StartRunInput = z.object({
  targetId: z.string().min(1).max(64),
  /** Default: the target's default model, else the first model the server lists. */
  model: z.string().min(1).max(256).optional(),
  /** Default: the target's dialect. */
  dialect: z.enum(DIALECT_IDS).optional(),
  name: z.string().max(200).optional(),
  /** A workload (shared/runs/workload/workload.ts), validated by the core with paths in its errors; its `target` is ignored. */
  workload: z.record(z.string(), z.unknown()),
  /** Watch the server's own metrics through the run (summary.server). Default true. */
  serverMetrics: z.boolean().optional(),
  /**
   * Receive the server's OTLP/HTTP traces for this run (docs/tracing.md) on this port — bound to
   * loopback unless `host` says otherwise — and join its spans to the requests (summary.serverPhases).
   * Port 0: any free port (tests).
   */
  otlpListen: z
    .object({
      port: z.number().int().min(0).max(65535),
      host: z.string().min(1).max(255).optional(),
    })
    .optional(),
  /** One of N repeats of this workload (the app's run sequence): written into the run's header. */
  repeat: z
    .object({
      group: z.string().min(1).max(64),
      index: z.number().int().min(1).max(MAX_REPEATS),
      of: z.number().int().min(1).max(MAX_REPEATS),
    })
    .optional(),
});
export type StartRunInput = z.infer<typeof StartRunInput>;

export const ExportFormat = z.enum(['vllm', 'vllm-detailed', 'csv', 'raw']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** The runs of a report: one, or up to 16 compared (repeats of one workload pool into one column). */
export const ReportKeys = z.array(runKey).min(1).max(16);

export const ImportRunInput = z.object({
  filename: z.string().min(1).max(255),
  /** The file's text (a vLLM result JSON, several of them one per line, or SGLang JSONL). */
  content: z.string().max(200_000_000),
});
export type ImportRunInput = z.infer<typeof ImportRunInput>;

/** A run in the history list. */
export interface RunEntry {
  key: string;
  runId: string;
  name: string | null;
  startedAtWall: number;
  model: string;
  url: string;
  dialect: string;
  source: 'tokenscope' | 'vllm' | 'sglang';
  imported: boolean;
  partial: boolean;
  /**
   * Why the run file's own summary was not trusted (malformed, impossible values, duplicate request
   * lines): its numbers were recomputed from the request lines. null (or absent) when sound.
   */
  damage?: string | null;
  cancelled: boolean;
  /** The run is going on now. */
  running: boolean;
  completed: number;
  failed: number;
  durationS: number;
  flagged: boolean;
  sizeBytes: number;
  /** One of N repeats of a workload: repeats are pooled when compared. */
  repeat?: RunRepeat;
}

export interface RunList {
  runs: RunEntry[];
  /** Files in the folder that are not runs, with why. */
  skipped: { file: string; error: string }[];
  /** The runs folder (shown so users can find their files). */
  dir: string;
}

/** A whole run, to show with every chart. Native runs carry their request lines; imports only outcomes. */
export interface RunDetail {
  entry: RunEntry;
  header: RunHeader | null;
  summary: RunSummary;
  /** Native runs: every request line, warm-up included, in completion order. */
  lines: RunRequestLine[] | null;
  /** Imports: per-request outcomes when the file had per-request arrays. */
  outcomes: RequestOutcome[] | null;
  /** Lines skipped or repaired when the file was read; import warnings. */
  problems: string[];
}

export interface RunStarted {
  runId: string;
  key: string;
  header: RunHeader;
  /** What the client self-check flags (ELD p99 ms, mean CPU % of a core). */
  selfCheckThresholds: { eventLoopDelayP99Ms: number; cpuMeanPct: number };
}

/**
 * Swimlane traffic, batched ~10 times a second: requests sent, their new events, and those that
 * finished. Times are ms since the measured part of the run began (warm-up: since the warm-up began).
 */
export interface RunLaneBatch {
  runId: string;
  starts: RunRequestStart[];
  /** New events per request since the last batch: absolute times and tokens. */
  events: { id: string; t: number[]; tok: number[] }[];
  done: {
    id: string;
    ok: boolean;
    endMs: number;
    ttftMs: number | null;
    errorKind: string | null;
    errorMessage: string | null;
    outputTokens: number;
  }[];
}

export interface RunFinished {
  runId: string;
  key: string;
  /** null only when the run failed before its file had a header (see `error`). */
  summary: RunSummary | null;
  cancelled: boolean;
  /** The run file could not be written completely. */
  fileError: string | null;
  /** Set when the run could not start or failed as a whole (e.g. prompts file unreadable). */
  error: string | null;
  /** The run never started because its test request failed (`error` has the server's words). */
  testRequestFailed?: boolean;
}

export interface RunExport {
  filename: string;
  mime: string;
  content: string;
}

/** What `exportRunOtlp` sent (docs/tracing.md: a run's requests as OTLP client spans). */
export interface OtlpExported {
  spans: number;
  batches: number;
  /** Chunk events in the spans. */
  events: number;
  /** Measured requests left out: sent without trace headers; without the run's wall clock. */
  untraced: number;
  noClock: number;
}
