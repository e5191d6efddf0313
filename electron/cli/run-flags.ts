/**
 * `tokenscope run`'s flags (RunCliOptions) and how they lay over a workload file's JSON before it
 * is validated once (applyOverrides), with the `--header "Name: value"` list parsed.
 */
import { applyToolOverrides, TOOL_FLAG_OF_FIELD, type ToolCliOptions } from './tool-flags.ts';
import type { MetricsEndpoint } from '../../shared/metrics/roles.ts';
import { mixEntryOfText } from '../../shared/runs/workload/models.ts';
import path from 'node:path';
import type { DialectId } from '../../shared/dialects.ts';
import type { RunRepeat } from '../../shared/runs/file/line-schema.ts';
import { IMAGE_FLAG_OF_FIELD, imageOverrides, type ImageCliOptions } from './image-flags.ts';

export interface RunCliOptions extends ImageCliOptions, ToolCliOptions {
  /** Embeddings/rerank (workload `pooling`): inputs per request, documents per query, their tokens, top_n. */
  batchSize?: number;
  documents?: number;
  documentLen?: number;
  topN?: number;
  target?: string;
  out?: string;
  model?: string;
  dialect?: DialectId;
  requests?: number;
  concurrency?: number;
  rate?: string;
  burstiness?: number;
  inputLen?: string;
  outputLen?: string;
  /** Shared prefixes: this many groups (with --prefix-len). */
  prefixGroups?: number;
  /** Shared prefixes: tokens of each group's prefix (with --prefix-groups). */
  prefixLen?: number;
  /** A unique random prefix per request. */
  cacheBust?: boolean;
  /** Empty the server's prefix cache before the run (and each repeat). */
  resetPrefixCache?: boolean;
  /** Multi-turn sessions: turns per conversation, N or MIN-MAX. */
  turns?: string;
  /** Think time between turns: MS, MIN-MAX (uniform) or exp:MEAN. */
  thinkTime?: string;
  /** Multi-turn sessions: the first user message's tokens, N or MIN-MAX. */
  firstInputLen?: string;
  /** A model mix: `name[=weight]`, repeatable (workload `models`). */
  mix?: string[];
  seed?: number;
  duration?: number;
  warmup?: number;
  /** Commander's --no-test-request: false skips the test request. */
  testRequest?: boolean;
  sloTtft?: number;
  sloTpot?: number;
  sloE2el?: number;
  apiKey?: string;
  header?: string[];
  name?: string;
  continuousUsage?: boolean;
  saveText?: boolean;
  /** Commander's --no-trace-headers: false sends no traceparent / x-request-id. */
  traceHeaders?: boolean;
  /** Receive the server's OTLP traces on this port (0: any) and join them to the requests. */
  otlpListen?: number;
  /** The receiver's address (default 127.0.0.1). */
  otlpHost?: string;
  /** keep-alive (pooled, a closed reused connection retried once) or close (one per request). */
  connection?: string;
  /** Whole-request timeout (ms). */
  timeout?: number;
  /** No byte for this long fails a request (ms; 0 = never). */
  idleTimeout?: number;
  insecure?: boolean;
  quiet?: boolean;
  json?: boolean;
  /** Commander's --no-server-metrics: false turns the server-side watch off. */
  serverMetrics?: boolean;
  /** Where the server's metrics are when not at <base>/metrics. */
  metricsUrl?: string;
  /** Telemetry endpoints beside the server (dcgm-exporter, node_exporter): GPU energy per token. */
  telemetryUrl?: string[];
  /** `--metrics-endpoint ROLE=URL`: a disaggregated deployment's role endpoints. */
  metricsEndpoint?: MetricsEndpoint[];
  /** Run the workload this many times on each target, then pool the repeats (default 1). */
  repeat?: number;
  /** Internal: which repeat this run is (written into the header). */
  repeatOf?: RunRepeat;
  /** Internal: the process's last run, whose I/O threads end before its summary (RunOptions.releaseIo). */
  releaseIo?: boolean;
  /** One shard of a run from several machines: I/N, 0-based (run-shard.ts). */
  shard?: string;
  /** When the measured part starts, on the reference clock (epoch ms or ISO-8601 with a zone). */
  startAt?: string;
  /** Whose HTTP Date is the reference clock (default: the target's origin). */
  clockUrl?: string;
  /** Replay this trace (Mooncake JSONL or BurstGPT CSV) instead of the workload's prompts and arrivals. */
  trace?: string;
  traceFormat?: string;
  /** The trace's gaps divided by this. */
  speedup?: number;
  /** START-END seconds of trace time. */
  window?: string;
  blockTokens?: number;
  /** Flag the replay when its lag p99 exceeds this (ms). */
  maxLag?: number;
}

export type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** "128" → fixed, "100-200" → uniform. */
function parseLen(v: string): unknown {
  const m = /^(\d+)(?:-(\d+))?$/.exec(v.trim());
  if (!m) return v; // let the schema report it
  return m[2] === undefined ? Number(m[1]) : { type: 'uniform', min: Number(m[1]), max: Number(m[2]) };
}

/** "500" → fixed, "200-800" → uniform, "exp:1000" → exponential with that mean (ms). */
function parseThinkTime(v: string): unknown {
  const t = v.trim();
  const e = /^exp:(\d+(?:\.\d+)?)$/.exec(t);
  if (e) return { type: 'exponential', meanMs: Number(e[1]) };
  const m = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(t);
  if (!m) return t; // let the schema report it
  return m[2] === undefined ? Number(m[1]) : { type: 'uniform', minMs: Number(m[1]), maxMs: Number(m[2]) };
}

/** The workload file's JSON with the flags laid over it (validated afterwards, once). */
export function applyOverrides(raw: Obj, o: RunCliOptions): { raw: Obj; error?: string } {
  const w: Obj = { ...raw };
  const t = obj(w.target);
  if (o.target !== undefined || o.dialect !== undefined || o.model !== undefined || o.insecure)
    w.target = {
      ...t,
      ...(o.target !== undefined ? { url: o.target } : {}),
      ...(o.dialect ? { dialect: o.dialect } : {}),
      ...(o.model ? { model: o.model } : {}),
      ...(o.insecure ? { insecureTls: true } : {}),
    };
  if (o.requests !== undefined) w.requests = o.requests;
  if (o.duration !== undefined) w.durationS = o.duration;
  const traced = traceOverrides(w, o);
  if (typeof traced === 'string') return { raw: w, error: traced };
  if (w.requests === undefined && w.durationS === undefined && !traced) w.requests = 100;
  if (o.concurrency !== undefined) w.maxConcurrency = o.concurrency;
  if (o.rate !== undefined) {
    const r = /^inf(inity)?$/i.test(o.rate.trim()) ? 'inf' : Number(o.rate);
    if (r !== 'inf' && !(Number.isFinite(r) && r > 0))
      return {
        raw: w,
        error: `--rate must be requests per second (a number above 0) or inf; got "${o.rate}"`,
      };
    w.rate = r;
  }
  if (o.burstiness !== undefined) {
    w.burstiness = o.burstiness;
    if (w.arrival !== 'constant') delete w.arrival; // 1 → Poisson, else gamma (vLLM)
  }
  if (o.seed !== undefined) w.seed = o.seed;
  if (o.warmup !== undefined) w.warmup = o.warmup;
  if (o.testRequest === false) w.testRequest = false;
  if (o.name !== undefined) w.name = o.name;
  if (o.continuousUsage) w.continuousUsage = true;
  if (o.saveText) w.saveText = true;
  if (o.traceHeaders === false) w.traceHeaders = false;
  if (o.connection !== undefined) w.connection = o.connection;
  if (o.timeout !== undefined) w.timeoutMs = o.timeout;
  if (o.turns !== undefined || o.thinkTime !== undefined || o.firstInputLen !== undefined)
    w.sessions = {
      ...obj(w.sessions),
      ...(o.firstInputLen !== undefined ? { firstInputLen: parseLen(o.firstInputLen) } : {}),
      ...(o.turns !== undefined ? { turns: parseLen(o.turns) } : {}),
      ...(o.thinkTime !== undefined ? { thinkTimeMs: parseThinkTime(o.thinkTime) } : {}),
    };
  if (o.mix !== undefined) w.models = o.mix.map(mixEntryOfText);
  if (o.idleTimeout !== undefined) w.idleTimeoutMs = o.idleTimeout;
  applyToolOverrides(w, o);
  if (o.sloTtft !== undefined || o.sloTpot !== undefined || o.sloE2el !== undefined)
    w.slo = {
      ...obj(w.slo),
      ...(o.sloTtft !== undefined ? { ttftMs: o.sloTtft } : {}),
      ...(o.sloTpot !== undefined ? { tpotMs: o.sloTpot } : {}),
      ...(o.sloE2el !== undefined ? { e2elMs: o.sloE2el } : {}),
    };
  const p = obj(w.prompts);
  const type = p.type ?? 'synthetic';
  if (o.inputLen !== undefined || o.outputLen !== undefined) {
    if (type === 'trace')
      return {
        raw: w,
        error: `--input-len and --output-len: a trace sets every request's lengths (sampling.maxTokens caps the outputs)`,
      };
    if (type === 'synthetic') {
      w.prompts = {
        ...p,
        type,
        ...(o.inputLen !== undefined ? { inputLen: parseLen(o.inputLen) } : {}),
        ...(o.outputLen !== undefined ? { outputLen: parseLen(o.outputLen) } : {}),
      };
    } else {
      if (o.inputLen !== undefined)
        return {
          raw: w,
          error: `--input-len applies to synthetic prompts; this workload reads ${String(type)} prompts`,
        };
      w.prompts = { ...p, outputLen: type === 'sharegpt' ? Number(o.outputLen) : parseLen(o.outputLen!) };
    }
  }
  if (
    o.batchSize !== undefined ||
    o.documents !== undefined ||
    o.documentLen !== undefined ||
    o.topN !== undefined
  )
    w.pooling = {
      ...obj(w.pooling),
      ...(o.batchSize !== undefined ? { batchSize: o.batchSize } : {}),
      ...(o.documents !== undefined ? { documents: o.documents } : {}),
      ...(o.documentLen !== undefined ? { documentLen: o.documentLen } : {}),
      ...(o.topN !== undefined ? { topN: o.topN } : {}),
    };
  const cacheError = prefixOverrides(w, o);
  if (cacheError) return { raw: w, error: cacheError };
  const imageError = imageOverrides(w, o);
  if (imageError) return { raw: w, error: imageError };
  return { raw: w };
}

/** --prefix-groups/--prefix-len, --cache-bust (synthetic prompts) and --reset-prefix-cache. */
function prefixOverrides(w: Obj, o: RunCliOptions): string | null {
  if (o.resetPrefixCache) w.resetPrefixCache = true;
  const groups = o.prefixGroups !== undefined || o.prefixLen !== undefined;
  if (!groups && !o.cacheBust) return null;
  const p = obj(w.prompts);
  const type = p.type ?? 'synthetic';
  if (type !== 'synthetic')
    return `--prefix-groups, --prefix-len and --cache-bust apply to synthetic prompts; this workload reads ${String(type)} prompts`;
  if (groups && (o.prefixGroups === undefined || o.prefixLen === undefined))
    return '--prefix-groups and --prefix-len go together (G groups of N-token prefixes)';
  w.prompts = {
    ...p,
    type,
    ...(groups ? { prefixGroups: { groups: o.prefixGroups, prefixLen: o.prefixLen } } : {}),
    ...(o.cacheBust ? { cacheBust: true } : {}),
  };
  return null;
}

/**
 * --trace and its options over the workload's prompts (a trace path from the command line is
 * relative to the current folder). True when the run replays a trace; a message when a flag is wrong.
 */
function traceOverrides(w: Obj, o: RunCliOptions): boolean | string {
  const given = o.traceFormat ?? o.speedup ?? o.window ?? o.blockTokens ?? o.maxLag;
  if (o.trace !== undefined) w.prompts = { type: 'trace', path: path.resolve(o.trace) };
  const p = obj(w.prompts);
  if (p.type !== 'trace') {
    if (given !== undefined)
      return '--speedup, --window, --trace-format, --block-tokens and --max-lag go with --trace FILE';
    return false;
  }
  const q: Obj = { ...p };
  if (o.traceFormat !== undefined) q.format = o.traceFormat;
  if (o.speedup !== undefined) q.speedup = o.speedup;
  if (o.blockTokens !== undefined) q.blockTokens = o.blockTokens;
  if (o.maxLag !== undefined) q.maxLagMs = o.maxLag;
  if (o.window !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)?\s*-\s*(\d+(?:\.\d+)?)?\s*$/.exec(o.window);
    if (!m || (m[1] === undefined && m[2] === undefined))
      return `--window must be START-END in seconds of trace time (either side may be left out), got "${o.window}"`;
    if (m[1] !== undefined) q.startS = Number(m[1]);
    if (m[2] !== undefined) q.endS = Number(m[2]);
  }
  w.prompts = q;
  return true;
}

/**
 * The workload field each flag sets and the flag's option key: a value the schema refuses is then
 * named by the flag the user typed (`-c/--concurrency: At least 1.`), not by the field
 * (`maxConcurrency`), which they never saw. A field set by the workload file keeps its path.
 */
const FLAG_OF_FIELD: Record<string, [flag: string, key: keyof RunCliOptions]> = {
  'target.url': ['--target', 'target'],
  'target.model': ['-m/--model', 'model'],
  requests: ['-n/--requests', 'requests'],
  maxConcurrency: ['-c/--concurrency', 'concurrency'],
  rate: ['-r/--rate', 'rate'],
  burstiness: ['--burstiness', 'burstiness'],
  durationS: ['--duration', 'duration'],
  seed: ['--seed', 'seed'],
  warmup: ['--warmup', 'warmup'],
  name: ['--name', 'name'],
  connection: ['--connection', 'connection'],
  timeoutMs: ['--timeout', 'timeout'],
  idleTimeoutMs: ['--idle-timeout', 'idleTimeout'],
  'slo.ttftMs': ['--slo-ttft', 'sloTtft'],
  'slo.tpotMs': ['--slo-tpot', 'sloTpot'],
  'slo.e2elMs': ['--slo-e2el', 'sloE2el'],
  'prompts.inputLen': ['--input-len', 'inputLen'],
  'prompts.outputLen': ['--output-len', 'outputLen'],
  'prompts.prefixGroups.groups': ['--prefix-groups', 'prefixGroups'],
  'prompts.prefixGroups.prefixLen': ['--prefix-len', 'prefixLen'],
  'prompts.cacheBust': ['--cache-bust', 'cacheBust'],
  'prompts.speedup': ['--speedup', 'speedup'],
  'prompts.blockTokens': ['--block-tokens', 'blockTokens'],
  'prompts.maxLagMs': ['--max-lag', 'maxLag'],
  'prompts.startS': ['--window', 'window'],
  'prompts.endS': ['--window', 'window'],
  'sessions.turns': ['--turns', 'turns'],
  'sessions.thinkTimeMs': ['--think-time', 'thinkTime'],
  'sessions.firstInputLen': ['--first-input-len', 'firstInputLen'],
  ...IMAGE_FLAG_OF_FIELD,
  models: ['--mix', 'mix'],
  'pooling.batchSize': ['--batch-size', 'batchSize'],
  'pooling.documents': ['--documents', 'documents'],
  'pooling.documentLen': ['--document-len', 'documentLen'],
  'pooling.topN': ['--top-n', 'topN'],
  ...(TOOL_FLAG_OF_FIELD as unknown as Record<string, [string, keyof RunCliOptions]>),
};

/** A workload path as the user knows it: the flag given for it (`-c/--concurrency`), else the path. */
export function flagLabel(o: RunCliOptions): (path: string) => string {
  return (p) => {
    for (let f = p; f; f = f.includes('.') ? f.slice(0, f.lastIndexOf('.')) : '') {
      const hit = FLAG_OF_FIELD[f];
      if (hit && o[hit[1]] !== undefined) return hit[0];
    }
    return p;
  };
}

export function parseHeaders(list: string[]): Record<string, string> | string {
  const h: Record<string, string> = {};
  for (const s of list) {
    const i = s.indexOf(':');
    if (i <= 0) return `--header must be "Name: value", got "${s}"`;
    h[s.slice(0, i).trim()] = s.slice(i + 1).trim();
  }
  return h;
}
