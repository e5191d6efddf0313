/**
 * `tokenscope run`'s flags (RunCliOptions) and how they lay over a workload file's JSON before it
 * is validated once (applyOverrides), with the `--header "Name: value"` list parsed.
 */
import type { DialectId } from '../../shared/dialects.ts';
import type { RunRepeat } from '../../shared/runs/run-types.ts';

export interface RunCliOptions {
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
  /** Run the workload this many times on each target, then pool the repeats (default 1). */
  repeat?: number;
  /** Internal: which repeat this run is (written into the header). */
  repeatOf?: RunRepeat;
  /** One shard of a run from several machines: I/N, 0-based (run-shard.ts). */
  shard?: string;
  /** When the measured part starts, on the reference clock (epoch ms or ISO-8601 with a zone). */
  startAt?: string;
  /** Whose HTTP Date is the reference clock (default: the target's origin). */
  clockUrl?: string;
}

export type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** "128" → fixed, "100-200" → uniform. */
export function parseLen(v: string): unknown {
  const m = /^(\d+)(?:-(\d+))?$/.exec(v.trim());
  if (!m) return v; // let the schema report it
  return m[2] === undefined ? Number(m[1]) : { type: 'uniform', min: Number(m[1]), max: Number(m[2]) };
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
  if (w.requests === undefined && w.durationS === undefined) w.requests = 100;
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
  if (o.connection !== undefined) w.connection = o.connection;
  if (o.timeout !== undefined) w.timeoutMs = o.timeout;
  if (o.idleTimeout !== undefined) w.idleTimeoutMs = o.idleTimeout;
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
  return { raw: w };
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
