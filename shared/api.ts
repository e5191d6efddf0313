/**
 * The one API contract between the core (Electron main process, or `tokenscope serve`) and the
 * UI. Every request/response method and every event stream is declared here once, with zod
 * schemas for what crosses the trust boundary. The preload bridge and the web-mode server are
 * both generated from this table, and a test proves every method has exactly one handler.
 *
 * Methods return `Result` values; nothing throws across the bridge.
 */
import { z } from 'zod';
import { DIALECT_IDS } from './dialects.ts';
import type { TargetSettings } from './target.ts';
import { errorMessage, type Result as BaseResult } from './result.ts';
import type { EventName, MethodName } from './api-names.ts';
import { parseSelector } from './metrics/prom-selector.ts';
import { MAX_METRICS_ENDPOINTS, METRICS_ROLES } from './metrics/roles.ts';
import { ExportFormat, ImportRunInput, ReportKeys, runKey, StartRunInput } from './runs-api.ts';
import { DEFINITION_IDS } from './runs/summary/definitions.ts';
import { StartSweepInput, sweepKey } from './sweeps-api.ts';

export type { ApiErrorKind } from './result.ts';
/** A method's answer: its value, or an ApiError (shared/result.ts). */
export type Result<T> = BaseResult<T>;

const dialect = z.enum(DIALECT_IDS);

/**
 * What an HTTP header value can carry: tab, visible ASCII and Latin-1 (RFC 9110 obs-text). A
 * character past U+00FF (a pasted “smart” quote, a non-Latin letter) cannot be sent at all.
 */
export function headerValueProblem(v: string): string | null {
  const m = /[^\t\x20-\x7e\x80-\xff]/.exec(v);
  if (!m) return null;
  const c = m[0];
  const code = c.codePointAt(0)!;
  const shown = code < 0x20 || code === 0x7f ? 'a control character' : `"${c}"`;
  return `contains ${shown} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at position ${m.index + 1}, which cannot be sent in an HTTP header: check for a pasted quote or stray character`;
}
const headerValue = z
  .string()
  .max(8192)
  .superRefine((v, ctx) => {
    const p = headerValueProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: `the value ${p}` });
  });
const headerRecord = z.record(z.string().max(256), headerValue);

/** `file:`, `javascript:`, `data:`… parse as URLs; only http(s) servers can be measured or scraped. */
const httpUrl = z
  .string()
  .url()
  .max(2048)
  .refine((v) => /^https?:\/\//i.test(v), {
    message: 'Only http:// and https:// URLs can be used here.',
  });

/** A Prometheus label selector naming this target's servers; at least one matcher (parseSelector). */
export function selectorProblem(sel: string): string | null {
  try {
    if (parseSelector(sel).length === 0)
      return 'Name the servers with at least one label, e.g. {job="vllm"} or {instance="gpu-1:8000"}.';
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}

export const TargetInput = z
  .object({
    id: z.string().max(64).optional(),
    name: z.string().min(1).max(120),
    baseUrl: httpUrl,
    dialect,
    defaultModel: z.string().max(256).optional(),
    headers: headerRecord.optional(),
    /**
     * Headers whose values are secrets (stored like the API key, never shown again): the full list
     * of names the target keeps; `value` sets or replaces one, absent keeps the stored value.
     */
    secretHeaders: z
      .array(z.object({ name: z.string().min(1).max(256), value: headerValue.optional() }))
      .max(64)
      .optional(),
    /** Write-only: a new key to store encrypted; '' clears it; absent keeps the stored one. */
    apiKey: z
      .string()
      .max(8192)
      .superRefine((v, ctx) => {
        const p = headerValueProblem(v);
        if (p) ctx.addIssue({ code: 'custom', message: `The API key ${p}.` });
      })
      .optional(),
    /**
     * The base URL moved to another host: keep the stored key (and secret headers) for it? Absent or
     * false: they are dropped, so a key never follows a target to another host silently.
     */
    keepApiKey: z.boolean().optional(),
    metricsUrl: httpUrl.optional(),
    /**
     * More metrics endpoints beside the server's, scraped on the same clock: GPU telemetry
     * (NVIDIA dcgm-exporter, `:9400/metrics`) and host telemetry (node_exporter, `:9100/metrics`).
     */
    telemetryUrls: z.array(httpUrl).max(8).optional(),
    /**
     * A disaggregated or routed deployment's other metrics endpoints, each with its role (prefill,
     * decode, router, server), scraped on the server's clock and summed up per role in a run.
     */
    metricsEndpoints: z
      .array(z.object({ url: httpUrl, role: z.enum(METRICS_ROLES) }))
      .max(MAX_METRICS_ENDPOINTS)
      .optional(),
    /** Read server metrics from this Prometheus server instead of the target's /metrics. */
    prometheusUrl: httpUrl.optional(),
    /** With prometheusUrl: the label selector of this target's servers (`{job="vllm"}`). */
    prometheusSelector: z.string().max(2048).optional(),
    /** How often server metrics are read while watched. Default 1000. */
    metricsIntervalMs: z.number().int().min(250).max(60_000).optional(),
    /** Per scrape or query. Default: the interval, within 1–10 s. */
    metricsTimeoutMs: z.number().int().min(100).max(60_000).optional(),
    insecureTls: z.boolean().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.prometheusUrl === undefined) return;
    const problem = selectorProblem(t.prometheusSelector ?? '');
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['prometheusSelector'], message: problem });
  });
export type TargetInput = z.infer<typeof TargetInput>;

/** What the UI sees of a target: never the key, only whether there is one. */
export interface TargetView extends TargetSettings {
  headers?: Record<string, string>;
  /** Names of the headers whose values are stored as secrets (the values never reach the UI). */
  secretHeaderNames?: string[];
  hasApiKey: boolean;
  builtin: boolean;
}

const chatMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().max(1_000_000),
});

export const FireInput = z.object({
  targetId: z.string().max(64),
  dialect: dialect.optional(),
  model: z.string().min(1).max(256),
  prompt: z.string().max(1_000_000).optional(),
  messages: z.array(chatMessage).max(1000).optional(),
  /** Embeddings: the batch of inputs; rerank: the documents scored against `prompt` (the query). */
  inputs: z.array(z.string().max(1_000_000)).min(1).max(4096).optional(),
  /** Rerank: the best N documents only (absent: every one scored). */
  topN: z.number().int().min(1).max(4096).optional(),
  params: z
    .object({
      maxTokens: z.number().int().min(1).max(1_000_000).optional(),
      temperature: z.number().min(0).max(10).optional(),
      topP: z.number().min(0).max(1).optional(),
      seed: z.number().int().optional(),
      ignoreEos: z.boolean().optional(),
      minTokens: z.number().int().min(0).optional(),
      stop: z.array(z.string().max(1000)).max(16).optional(),
    })
    .optional(),
  extraBody: z.record(z.string(), z.unknown()).optional(),
  headers: headerRecord.optional(),
  includeUsage: z.boolean().optional(),
  continuousUsage: z.boolean().optional(),
  /** Send a fresh W3C traceparent and an x-request-id (default true). */
  traceHeaders: z.boolean().optional(),
  timeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  /** Full endpoint path override (else the dialect's path on the target's base URL). */
  endpointUrl: httpUrl.optional(),
});
export type FireInput = z.infer<typeof FireInput>;

const id = z.string().min(1).max(128);

/**
 * Methods: name → argument tuple schema. Result types are in `ApiResults` (trusted side → UI,
 * so typed, not validated).
 */
export const API_METHODS = {
  getAppInfo: z.tuple([]),
  listTargets: z.tuple([]),
  saveTarget: z.tuple([TargetInput]),
  deleteTarget: z.tuple([id]),
  listModels: z.tuple([id]),
  fireRequest: z.tuple([FireInput]),
  cancelRequest: z.tuple([id]),
  getRequest: z.tuple([id]),
  listHistory: z.tuple([]),
  curlFor: z.tuple([FireInput]),
  /** Scrape these targets' /metrics (every second); an empty list stops all scraping. */
  watchMetrics: z.tuple([z.array(id).max(16)]),
  /** Load runs (shared/runs-api.ts): one at a time; the run goes on in the core, events report it. */
  startRun: z.tuple([StartRunInput]),
  cancelRun: z.tuple([id]),
  listRuns: z.tuple([]),
  openRun: z.tuple([runKey]),
  renameRun: z.tuple([runKey, z.string().min(1).max(200)]),
  deleteRun: z.tuple([runKey]),
  exportRun: z.tuple([runKey, ExportFormat]),
  /**
   * One self-contained HTML report of runs (several: with their comparison, repeats pooled), under
   * the definitions given (default: the comparison's own choice). Web mode downloads it over HTTP.
   */
  exportReport: z.tuple([ReportKeys, z.enum(DEFINITION_IDS).optional()]),
  importRun: z.tuple([ImportRunInput]),
  /** Show the run file (or the runs folder) in the system's file manager; web mode answers with the path. */
  revealRun: z.tuple([runKey.optional()]),
  /** The run's requests as OTLP client spans to this traces endpoint (docs/tracing.md). */
  exportRunOtlp: z.tuple([runKey, httpUrl]),
  /**
   * A load sweep (shared/sweeps-api.ts): the workload at a series of loads, one at a time, never
   * beside a run; onSweepProgress reports each step. Its sweep file and step runs go in the runs folder.
   */
  startSweep: z.tuple([StartSweepInput]),
  cancelSweep: z.tuple([id]),
  listSweeps: z.tuple([]),
  openSweep: z.tuple([sweepKey]),
} as const satisfies Record<MethodName, z.ZodType>;

export type ApiMethod = keyof typeof API_METHODS;

export interface AppInfo {
  version: string;
  mode: 'electron' | 'web';
  simUrl: string | null;
  /** Whether API keys can be stored encrypted (Electron safeStorage); in web mode they stay in memory. */
  secretsPersisted: boolean;
}

/** Summary of a request for lists (history). */
export interface RequestSummary {
  id: string;
  targetId: string;
  targetName: string;
  model: string;
  dialect: (typeof DIALECT_IDS)[number];
  startedAtWall: number;
  state: 'running' | 'done' | 'error' | 'cancelled';
  ttftMs: number | null;
  e2eMs: number | null;
  outputTokens: number;
  errorKind: string | null;
  promptPreview: string;
}

/** A finished or running request in full (columns as plain arrays on the wire). */
export interface RequestSnapshot {
  summary: RequestSummary;
  input: FireInput;
  record: import('./record.ts').RequestRecord;
  /**
   * The server's span for it, when its server exported one to the app's receiver (sent again,
   * in a second onRequestFinished, once it came: electron/app/request-spans.ts).
   */
  server?: {
    phases: import('./tracing/server-phases.ts').ServerPhases;
    sharedClock: boolean;
  };
}

interface ApiResults {
  getAppInfo: AppInfo;
  listTargets: TargetView[];
  saveTarget: TargetView;
  deleteTarget: true;
  listModels: { models: string[]; source: string };
  fireRequest: { requestId: string };
  cancelRequest: { cancelled: boolean };
  getRequest: RequestSnapshot;
  listHistory: RequestSummary[];
  curlFor: { command: string };
  watchMetrics: import('./metrics-api.ts').MetricsState[];
  startRun: { runId: string; key: string };
  cancelRun: { cancelled: boolean };
  listRuns: import('./runs-api.ts').RunList;
  openRun: import('./runs-api.ts').RunDetail;
  renameRun: true;
  deleteRun: true;
  exportRun: import('./runs-api.ts').RunExport;
  exportReport: import('./runs-api.ts').RunExport;
  importRun: { keys: string[]; warnings: string[] };
  revealRun: { path: string; revealed: boolean };
  exportRunOtlp: import('./runs-api.ts').OtlpExported;
  startSweep: { sweepId: string; key: string };
  cancelSweep: { cancelled: boolean };
  listSweeps: import('./sweeps-api.ts').SweepList;
  openSweep: import('./runs/sweep/file.ts').SweepFile;
}

type ApiArgs<M extends ApiMethod> = z.infer<(typeof API_METHODS)[M]>;

/** The handler table both transports serve. */
export type ApiHandlers = { [M in ApiMethod]: (...args: ApiArgs<M>) => Promise<Result<ApiResults[M]>> };

/** The client-side view: same names, same results. */
export type ApiClient = ApiHandlers;

// ---------------------------------------------------------------------------------------------
// Events (core → UI). Names are onX, as in VS Code's services.

/** A batch of new events of one request: columnar, flushed at most ~30 times a second. */
export interface RequestBatch {
  requestId: string;
  /** Row index of the first event in this batch. */
  from: number;
  t: Float64Array;
  tokens: Uint32Array;
  read: Uint32Array;
  flags: Uint16Array;
  size: Uint32Array;
  text: string[];
  raw: string[];
  phases: import('./request.ts').Phases;
  status: number | null;
  bytes: number;
  reads: number;
}

export interface ApiEvents {
  onRequestStarted: RequestSummary;
  onRequestBatch: RequestBatch;
  onRequestFinished: RequestSnapshot;
  onTargetsChanged: TargetView[];
  onMetricsScrape: import('./metrics-api.ts').MetricsScrape;
  onMetricsState: import('./metrics-api.ts').MetricsState;
  onRunStarted: import('./runs-api.ts').RunStarted;
  onRunProgress: import('./runs/live/progress-types.ts').RunProgress;
  onRunLanes: import('./runs-api.ts').RunLaneBatch;
  onRunFinished: import('./runs-api.ts').RunFinished;
  onRunsChanged: import('./runs-api.ts').RunList;
  onSweepProgress: import('./sweeps-api.ts').SweepEvent;
}

export type ApiEvent = keyof ApiEvents;

// The names and the types are the same sets, checked when compiling (not only by a test).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodsMatch: Same<ApiMethod, MethodName> = true;
const eventsMatch: Same<ApiEvent, EventName> = true;
void methodsMatch;
void eventsMatch;

/** Flush interval of live batches: ~30 per second whatever the event rate. */
export const BATCH_INTERVAL_MS = 33;
