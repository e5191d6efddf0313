/**
 * The "New run" form's state as strings (what the inputs hold), and the two conversions: draft →
 * workload JSON (the same file `tokenscope run` takes, shared/runs/workload/workload.ts) and workload JSON
 * → draft (Load workload JSON). Validation is the shared schema's (`parseWorkload`), so the form
 * and the CLI refuse the same things with the same paths. Fields the form has no input for
 * (prefix, timeoutMs, …) ride along untouched in `rest`.
 */
import { plainMessage } from '../../../shared/runs/workload/messages.ts';
import { parseWorkload, type WorkloadIssue } from '../../../shared/runs/workload/workload.ts';
import { errorMessage } from '../../../shared/result.ts';
import {
  IMAGE_DRAFT_DEFAULTS,
  imageFieldOfPath,
  imagesIn,
  imagesOut,
  type ImageDraft,
} from './image-draft.ts';
import { mixOfText, textOfMix } from '../../../shared/runs/workload/models.ts';
import {
  TOOL_DRAFT_DEFAULTS,
  toolFieldOfPath,
  toolIssues,
  toolPromptsOut,
  toolsIn,
  toolsOut,
  type ToolDraft,
} from './tool-draft.ts';
import {
  POOLING_DRAFT_DEFAULTS,
  poolingFieldOfPath,
  poolingIn,
  poolingOut,
  type PoolingDraft,
} from './pooling-draft.ts';

type LenType = 'fixed' | 'uniform' | 'normal';
export interface LenDraft {
  type: LenType;
  value: string;
  min: string;
  max: string;
  mean: string;
  std: string;
}

type StopBy = 'requests' | 'duration' | 'both';
type Arrival = 'auto' | 'constant' | 'poisson' | 'gamma';
type Force = 'default' | 'none' | 'ignore_eos' | 'min_tokens' | 'both';

export interface WorkloadDraft extends ImageDraft, ToolDraft, PoolingDraft {
  name: string;
  model: string;
  stopBy: StopBy;
  requests: string;
  durationS: string;
  /** '' = no limit. */
  maxConcurrency: string;
  /** A number, or 'inf' / '∞' / '' for all at once. */
  rate: string;
  arrival: Arrival;
  burstiness: string;
  /** '' = no ramp-up. */
  rampUpS: string;
  rampStartRate: string;
  warmup: string;
  /** One request before the clock starts; the run stops with its error if it fails. */
  testRequest: boolean;
  seed: string;
  source: 'synthetic' | 'sharegpt' | 'jsonl' | 'tools';
  inputLen: LenDraft;
  outputLen: LenDraft;
  /** Synthetic prompts and the prefix cache: shared prefix groups, a unique prefix each, or neither. */
  prefixMode: 'none' | 'groups' | 'bust';
  prefixGroups: string;
  prefixLen: string;
  /** Empty the server's prefix cache before the run (workload `resetPrefixCache`). */
  resetPrefixCache: boolean;
  path: string;
  /** Files: fixed output length ('' = the file's / the server's). */
  fileOutputLen: string;
  force: Force;
  temperature: string;
  maxTokens: string;
  sloTtftMs: string;
  sloTpotMs: string;
  sloE2elMs: string;
  continuousUsage: boolean;
  /** A W3C traceparent and an x-request-id on every request (workload `traceHeaders`, default on). */
  traceHeaders: boolean;
  /** keep-alive: pooled connections (one the server closed is retried once); close: one per request. */
  connection: 'keep-alive' | 'close';
  /** Extra request-body fields, as JSON text ('' = none): merged into every request. */
  extraBody: string;
  /** A model mix as typed, "name=weight, …" ('' = the target's model only): workload `models`. */
  models: string;
  /** Watch the server's own metrics through the run (not a workload field: a run option). */
  serverMetrics: boolean;
  /** Receive the server's OTLP traces on `otlpPort` during the run (a run option: docs/tracing.md). */
  otlpListen: boolean;
  otlpPort: string;
  /** Workload fields the form does not show, kept as loaded. */
  rest: Record<string, unknown>;
}

const len = (type: LenType, value: string): LenDraft => ({
  type,
  value,
  min: '',
  max: '',
  mean: '',
  std: '',
});

/** One click on "Start run" against the simulator works with these. */
export function defaultDraft(): WorkloadDraft {
  return {
    name: '',
    model: '',
    stopBy: 'requests',
    requests: '200',
    durationS: '60',
    maxConcurrency: '32',
    rate: 'inf',
    arrival: 'auto',
    burstiness: '1',
    rampUpS: '',
    rampStartRate: '0',
    warmup: '0',
    testRequest: true,
    seed: '0',
    source: 'synthetic',
    inputLen: len('fixed', '128'),
    outputLen: len('fixed', '64'),
    prefixMode: 'none',
    prefixGroups: '8',
    prefixLen: '512',
    resetPrefixCache: false,
    path: '',
    fileOutputLen: '',
    force: 'default',
    temperature: '',
    maxTokens: '',
    sloTtftMs: '',
    sloTpotMs: '',
    sloE2elMs: '',
    continuousUsage: false,
    traceHeaders: true,
    connection: 'keep-alive',
    extraBody: '',
    models: '',
    serverMetrics: true,
    otlpListen: false,
    otlpPort: '4318',
    ...IMAGE_DRAFT_DEFAULTS,
    ...TOOL_DRAFT_DEFAULTS,
    ...POOLING_DRAFT_DEFAULTS,
    rest: {},
  };
}

export function isInfRate(s: string): boolean {
  const t = s.trim().toLowerCase();
  return t === '' || t === 'inf' || t === '∞' || t === 'infinity';
}

/** A number from a field; NaN stays NaN so the schema reports it ("expected number") with its path. */
function num(s: string): number {
  const t = s.trim();
  return t === '' ? NaN : Number(t);
}

function lenOut(d: LenDraft): unknown {
  if (d.type === 'fixed') return num(d.value);
  if (d.type === 'uniform') return { type: 'uniform', min: num(d.min), max: num(d.max) };
  const o: Record<string, unknown> = { type: 'normal', mean: num(d.mean), std: num(d.std) };
  if (d.min.trim()) o.min = num(d.min);
  if (d.max.trim()) o.max = num(d.max);
  return o;
}

function lenIn(v: unknown, fallback: LenDraft): LenDraft {
  if (typeof v === 'number') return len('fixed', String(v));
  if (!v || typeof v !== 'object') return fallback;
  const o = v as Record<string, unknown>;
  const s = (k: string): string => (typeof o[k] === 'number' ? String(o[k]) : '');
  if (o.type === 'fixed') return len('fixed', s('value'));
  if (o.type === 'uniform') return { ...len('uniform', ''), min: s('min'), max: s('max') };
  if (o.type === 'normal')
    return { ...len('normal', ''), mean: s('mean'), std: s('std'), min: s('min'), max: s('max') };
  return fallback;
}

/** The workload JSON of a draft (no target: the app sends the target apart; `withTarget` adds one for the file). */
export function draftToWorkload(
  d: WorkloadDraft,
  withTarget?: { url: string; dialect: string; model?: string },
): Record<string, unknown> {
  const w: Record<string, unknown> = { ...d.rest, version: 1 };
  delete w.target;
  if (d.name.trim()) w.name = d.name.trim();
  else delete w.name;
  if (withTarget)
    w.target = {
      url: withTarget.url,
      dialect: withTarget.dialect,
      ...(withTarget.model ? { model: withTarget.model } : {}),
    };
  delete w.requests;
  delete w.durationS;
  if (d.stopBy !== 'duration') w.requests = num(d.requests);
  if (d.stopBy !== 'requests') w.durationS = num(d.durationS);
  w.maxConcurrency = d.maxConcurrency.trim() === '' ? null : num(d.maxConcurrency);
  w.rate = isInfRate(d.rate) ? 'inf' : num(d.rate);
  if (d.arrival === 'auto') delete w.arrival;
  else w.arrival = d.arrival;
  w.burstiness = d.arrival === 'poisson' ? 1 : num(d.burstiness);
  if (d.rampUpS.trim()) w.rampUp = { startRate: num(d.rampStartRate || '0'), durationS: num(d.rampUpS) };
  else delete w.rampUp;
  w.warmup = num(d.warmup || '0');
  w.testRequest = d.testRequest;
  w.seed = num(d.seed || '0');
  const prevPrompts = (d.rest.prompts && typeof d.rest.prompts === 'object' ? d.rest.prompts : {}) as Record<
    string,
    unknown
  >;
  let prompts: Record<string, unknown>;
  if (d.source === 'synthetic') {
    prompts = { type: 'synthetic', inputLen: lenOut(d.inputLen), outputLen: lenOut(d.outputLen) };
    if (prevPrompts.type === 'synthetic' && typeof prevPrompts.prefix === 'string')
      prompts.prefix = prevPrompts.prefix;
    if (d.prefixMode === 'groups')
      prompts.prefixGroups = { groups: num(d.prefixGroups), prefixLen: num(d.prefixLen) };
    if (d.prefixMode === 'bust') prompts.cacheBust = true;
  } else if (d.source === 'tools') prompts = toolPromptsOut(d);
  else {
    prompts = { type: d.source, path: d.path.trim() };
    if (d.fileOutputLen.trim()) prompts.outputLen = num(d.fileOutputLen);
    if (d.source === 'jsonl' && prevPrompts.type === 'jsonl' && typeof prevPrompts.shuffle === 'boolean')
      prompts.shuffle = prevPrompts.shuffle;
  }
  if (d.force !== 'default') prompts.force = d.force;
  w.prompts = prompts;
  const sampling: Record<string, unknown> = {
    ...((d.rest.sampling as Record<string, unknown> | undefined) ?? {}),
  };
  delete sampling.temperature;
  delete sampling.maxTokens;
  if (d.temperature.trim()) sampling.temperature = num(d.temperature);
  if (d.maxTokens.trim()) sampling.maxTokens = num(d.maxTokens);
  w.sampling = sampling;
  const slo: Record<string, number> = {};
  if (d.sloTtftMs.trim()) slo.ttftMs = num(d.sloTtftMs);
  if (d.sloTpotMs.trim()) slo.tpotMs = num(d.sloTpotMs);
  if (d.sloE2elMs.trim()) slo.e2elMs = num(d.sloE2elMs);
  if (Object.keys(slo).length) w.slo = slo;
  else delete w.slo;
  w.continuousUsage = d.continuousUsage;
  if (d.resetPrefixCache) w.resetPrefixCache = true;
  else delete w.resetPrefixCache;
  if (d.traceHeaders) delete w.traceHeaders;
  else w.traceHeaders = false;
  w.connection = d.connection;
  const images = imagesOut(d, d.rest.images);
  if (images) w.images = images;
  else delete w.images;
  const tools = toolsOut(d, d.rest.tools);
  if (tools) w.tools = tools;
  else delete w.tools;
  const pooling = poolingOut(d);
  if (pooling) w.pooling = pooling;
  else delete w.pooling;
  delete w.models;
  const mix = mixOfText(d.models);
  if (mix) w.models = mix;
  delete w.extraBody;
  const extra = extraBodyOf(d.extraBody);
  // Not JSON: left as text, so the schema refuses it at `extraBody` (validateDraft says why first).
  if (extra !== null) w.extraBody = 'error' in extra ? d.extraBody : extra.value;
  return w;
}

/** The extra-body field parsed: null when empty; an error when it is not a JSON object. */
function extraBodyOf(text: string): { value: Record<string, unknown> } | { error: string } | null {
  if (text.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `not JSON: ${errorMessage(err)}` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { error: 'must be a JSON object, e.g. {"top_p": 0.9}' };
  return { value: v as Record<string, unknown> };
}

/** A loaded workload JSON as a draft (unknown or malformed fields fall back to the defaults; the schema reports them on start). */
export function workloadToDraft(raw: Record<string, unknown>): WorkloadDraft {
  const d = defaultDraft();
  const s = (v: unknown, fallback: string): string =>
    typeof v === 'number' ? String(v) : typeof v === 'string' ? v : fallback;
  const rest: Record<string, unknown> = { ...raw };
  const target = raw.target as Record<string, unknown> | undefined;
  d.name = typeof raw.name === 'string' ? raw.name : '';
  d.model = typeof target?.model === 'string' ? target.model : '';
  const hasReq = typeof raw.requests === 'number';
  const hasDur = typeof raw.durationS === 'number';
  d.stopBy = hasReq && hasDur ? 'both' : hasDur ? 'duration' : 'requests';
  d.requests = s(raw.requests, d.requests);
  d.durationS = s(raw.durationS, d.durationS);
  d.maxConcurrency = raw.maxConcurrency === null ? '' : s(raw.maxConcurrency, '');
  if (!('maxConcurrency' in raw)) d.maxConcurrency = '';
  d.rate = raw.rate === 'inf' || raw.rate === undefined ? 'inf' : s(raw.rate, 'inf');
  d.arrival =
    raw.arrival === 'constant' || raw.arrival === 'poisson' || raw.arrival === 'gamma' ? raw.arrival : 'auto';
  d.burstiness = s(raw.burstiness, '1');
  const ramp = raw.rampUp as Record<string, unknown> | undefined;
  d.rampUpS = ramp ? s(ramp.durationS, '') : '';
  d.rampStartRate = ramp ? s(ramp.startRate, '0') : '0';
  d.warmup = s(raw.warmup, '0');
  d.testRequest = raw.testRequest !== false;
  d.seed = s(raw.seed, '0');
  const p = raw.prompts as Record<string, unknown> | undefined;
  if (p?.type === 'sharegpt' || p?.type === 'jsonl' || p?.type === 'tools') {
    d.source = p.type;
    d.path = typeof p.path === 'string' ? p.path : '';
    d.fileOutputLen = typeof p.outputLen === 'number' ? String(p.outputLen) : '';
  } else if (p?.type === 'synthetic' || p === undefined) {
    d.source = 'synthetic';
    // The schema's defaults when absent: 128 in, 128 out.
    d.inputLen = lenIn(p?.inputLen ?? 128, d.inputLen);
    d.outputLen = lenIn(p?.outputLen ?? 128, d.outputLen);
    const g = p?.prefixGroups as Record<string, unknown> | undefined;
    d.prefixMode = g ? 'groups' : p?.cacheBust === true ? 'bust' : 'none';
    if (g) {
      d.prefixGroups = s(g.groups, d.prefixGroups);
      d.prefixLen = s(g.prefixLen, d.prefixLen);
    }
  }
  const force = p?.force;
  d.force =
    force === 'none' || force === 'ignore_eos' || force === 'min_tokens' || force === 'both'
      ? force
      : 'default';
  const sampling = raw.sampling as Record<string, unknown> | undefined;
  d.temperature = s(sampling?.temperature, '');
  d.maxTokens = s(sampling?.maxTokens, '');
  const slo = raw.slo as Record<string, unknown> | undefined;
  d.sloTtftMs = s(slo?.ttftMs, '');
  d.sloTpotMs = s(slo?.tpotMs, '');
  d.sloE2elMs = s(slo?.e2elMs, '');
  d.continuousUsage = raw.continuousUsage === true;
  d.resetPrefixCache = raw.resetPrefixCache === true;
  d.traceHeaders = raw.traceHeaders !== false;
  d.connection = raw.connection === 'close' ? 'close' : 'keep-alive';
  d.extraBody = raw.extraBody && typeof raw.extraBody === 'object' ? JSON.stringify(raw.extraBody) : '';
  Object.assign(d, imagesIn(raw.images), toolsIn(raw.tools, p));
  Object.assign(d, poolingIn(raw.pooling));
  d.models = textOfMix(raw.models);
  d.rest = rest;
  return d;
}

/** Client-side check with the shared schema (the core checks again); messages in plain words. */
export function validateDraft(d: WorkloadDraft): WorkloadIssue[] {
  const extra = extraBodyOf(d.extraBody);
  const own: WorkloadIssue[] = extra && 'error' in extra ? [{ path: 'extraBody', message: extra.error }] : [];
  own.push(...toolIssues(d));
  const r = parseWorkload(draftToWorkload(d));
  const schema = r.ok ? [] : r.error.filter((i) => !own.some((o) => i.path.startsWith(o.path)));
  const port = d.otlpListen ? otlpPortIssue(d.otlpPort) : null;
  return [
    ...own,
    ...schema.map((i) => ({ ...i, message: plainMessage(i.path, i.message) })),
    ...(port ? [{ path: 'otlpPort', message: port }] : []),
  ];
}

/** The trace receiver's port as typed: a whole number 1–65535, or why not. */
function otlpPortIssue(s: string): string | null {
  const n = Number(s.trim());
  return s.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= 65535
    ? null
    : 'a port from 1 to 65535 (OTLP/HTTP uses 4318)';
}

/** The startRun option the form's trace fields ask for (shared/runs-api.ts `otlpListen`). */
export function otlpListenOf(d: WorkloadDraft): { port: number } | undefined {
  return d.otlpListen && otlpPortIssue(d.otlpPort) === null ? { port: Number(d.otlpPort.trim()) } : undefined;
}

/**
 * The issues in a startRun error message: the core answers `bad workload: path: message; path: message`
 * (electron/app/runs-service.ts). Anything else is one issue without a path.
 */
export function issuesOfMessage(message: string): WorkloadIssue[] {
  const m = /^bad workload: (.*)$/s.exec(message);
  // The run's trace receiver could not listen (electron/runs/server-spans.ts): the port field's.
  if (/^cannot listen for server traces/.test(message)) return [{ path: 'otlpPort', message }];
  // The prompt file could not be read or has bad lines (electron/runs/prepare-run.ts): the path field's.
  if (/^prompts: /.test(message)) return [{ path: 'prompts.path', message: message.slice(9) }];
  if (!m) return [{ path: '', message }];
  return m[1]!.split('; ').map((part) => {
    const i = part.indexOf(': ');
    if (i < 0) return { path: '', message: part };
    const path = part.slice(0, i);
    return { path: path === '(workload)' ? '' : path, message: part.slice(i + 2) };
  });
}

/** Which form field an issue path belongs to (for aria-invalid and the inline message). */
export function fieldOfPath(path: string): string {
  const head = path.split(/[.[]/)[0] ?? '';
  if (path.startsWith('prompts.inputLen')) return 'inputLen';
  if (path.startsWith('prompts.outputLen')) return 'outputLen';
  if (path.startsWith('prompts.path')) return 'path';
  if (path.startsWith('prompts.prefixGroups.prefixLen')) return 'prefixLen';
  if (path.startsWith('prompts.prefixGroups')) return 'prefixGroups';
  if (path.startsWith('prompts.cacheBust')) return 'prefixMode';
  if (path.startsWith('prompts.force')) return 'force';
  if (path.startsWith('prompts')) return 'source';
  if (path.startsWith('sampling.temperature')) return 'temperature';
  if (path.startsWith('sampling.maxTokens')) return 'maxTokens';
  if (path.startsWith('slo.ttftMs')) return 'sloTtftMs';
  if (path.startsWith('slo.tpotMs')) return 'sloTpotMs';
  if (path.startsWith('slo.e2elMs')) return 'sloE2elMs';
  if (path.startsWith('rampUp')) return 'rampUpS';
  const feature = imageFieldOfPath(path) ?? toolFieldOfPath(path) ?? poolingFieldOfPath(path);
  if (feature) return feature;
  return head;
}
