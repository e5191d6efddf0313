// A run file's every field survives a write and a reopen: a maximal header, request lines (every
// optional field set, every event flag) and a summary line (every optional block), written with
// the real writer and read back with the real reader, deep-equal.
//
// A field added to a line's type but not to its schema cannot happen: the types are the schemas'
// (`z.output`, shared/runs/file/line-schema.ts, shared/runs/summary/schema.ts, ...), so the field
// exists once. Where a type declared elsewhere is copied into a line (Phases, Usage, TokenSource
// from shared/request.ts) a compile-time tie (`SameType`) stands beside the schema: there the
// typecheck is the test. What this file adds: a field added to a schema must be added to the
// maximal fixtures below (`everyKeySet`), so the round trip covers it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  EV_CHOICES,
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_REASONING,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../../shared/request.ts';
import {
  HeaderSchema,
  RequestSchema,
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  type RunHeader,
  type RunRequestLine,
} from '../../../shared/runs/file/line-schema.ts';
import { TokenizedLineSchema, type RunTokenizedLine } from '../../../shared/runs/file/tokenized-line.ts';
import { RunSummarySchema, type MetricStats, type RunSummary } from '../../../shared/runs/summary/schema.ts';
import { workload, tmpDir } from '../../testing/runs.ts';
import { readRunFile, RunFileWriter } from './run-file.ts';

const EVERY_FLAG = [
  EV_CONTENT,
  EV_COALESCED,
  EV_TOKENS_EXACT,
  EV_ERROR,
  EV_USAGE,
  EV_TERMINAL,
  EV_FINISH,
  EV_CHOICES,
  EV_REASONING,
];

const clock = {
  offsetMs: 1.5,
  uncertaintyMs: 0.4,
  method: 'http-date' as const,
  source: 'http://127.0.0.1:8000/health',
  rttMs: 0.8,
  probes: 6,
  note: 'Date changes at second boundaries',
};

const header: RunHeader = {
  type: 'header',
  format: RUN_FILE_FORMAT,
  version: RUN_FILE_VERSION,
  runId: 'run-roundtrip',
  name: 'every field',
  workload: workload({
    requests: 2,
    maxConcurrency: 2,
    prompts: { type: 'synthetic', inputLen: 8, outputLen: 4 },
  }),
  target: {
    url: 'http://127.0.0.1:8000/v1',
    dialect: 'openai-chat',
    model: 'm',
    headerNames: ['x-team'],
    authenticated: true,
  },
  tokenscopeVersion: '0.0.0-test',
  nodeVersion: 'v22.0.0',
  platform: 'linux',
  startedAtWall: 1_764_000_000_000,
  startedAt: '2025-11-24T16:00:00.000Z',
  clockZeroWall: 1_764_000_000_012.25,
  repeat: { group: 'g1', index: 2, of: 3 },
  testRequest: { attempts: 2, ttftMs: 12.5, e2eMs: 40.25, outputTokens: 4, responseModel: 'm-served' },
  prefixCacheReset: { ok: true, endpoint: '/reset_prefix_cache', status: 200, message: 'reset' },
  warmCacheTokens: 48,
  shard: { index: 1, of: 2, workloadHash: 'abc123', startAt: 1_764_000_000_000, clock },
  merged: {
    of: 2,
    workloadHash: 'abc123',
    startAt: 1_764_000_000_000,
    clockBoundMs: 5,
    flagged: true,
    shards: [
      {
        index: 0,
        runId: 'r0',
        file: 's0.jsonl',
        clock,
        shiftMs: 0.5,
        requests: 1,
        warmupRequests: 1,
        partial: false,
        selfCheckFlagged: true,
        flags: ['late start'],
      },
    ],
  },
};

/** A request line with every optional field set and one event of each flag (plus all at once). */
function requestLine(seq: number, warmup: boolean): RunRequestLine {
  const f = [...EVERY_FLAG, EVERY_FLAG.reduce((a, b) => a | b, 0)];
  return {
    type: 'request',
    seq,
    id: `${warmup ? 'w' : 'r'}${seq}`,
    ...(warmup ? { warmup: true as const } : {}),
    scheduledMs: warmup ? null : 100.5,
    arrivedMs: 100.75,
    startedMs: 101,
    queueMs: 0.25,
    sentMs: 101.125,
    lagMs: 0.625,
    connection: { reused: true, retried: true, retryReason: 'socket hang up' },
    inputTokens: 8,
    inputTokensSource: 'usage',
    expectedOutputTokens: 64,
    status: 'error',
    httpStatus: 200,
    phases: { connectedMs: 0.5, requestWrittenMs: 0.75, headersMs: 3, firstByteMs: 3.25, endMs: 30 },
    events: { t: f.map((_, i) => 5 + i * 2.5), tok: f.map((x) => (x & EV_CONTENT ? 2 : 0)), f },
    finishReason: 'length',
    usage: { promptTokens: 8, completionTokens: 4, totalTokens: 12, cachedTokens: 2, reasoningTokens: 2 },
    tokenSource: 'per-event',
    error: { kind: 'server', code: 'error-event', message: 'overloaded', status: 200, atMs: 29.5 },
    textLength: 20,
    reasoningLength: 10,
    bytes: 900,
    terminated: true,
    serverRequestId: 'chatcmpl-1',
    trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', requestId: 'req-1' },
    responseId: 'chatcmpl-abc',
    batch: { inputs: 4, results: 4, dimension: 384 },
    server: {
      spanId: '00f067aa0ba902b7',
      startWallMs: 1_764_000_000_013,
      endWallMs: 1_764_000_000_040,
      queueMs: 1.5,
      prefillMs: 2.25,
      decodeMs: 20,
      inferenceMs: 22.25,
      ttftMs: 4,
      e2eMs: 27,
      promptTokens: 12,
      completionTokens: 4,
      requestId: 'chatcmpl-1',
    },
    ttftMs: 5,
    tpotMs: 2.5,
    e2eMs: 30,
    outputTokens: 4,
    reasoningTokens: 2,
    reasoningTokensExact: true,
    ttfatMs: 7.5,
    tokenizedOutputTokens: 5,
    text: 'some text',
    promptHash: '0badc0de',
    shard: 1,
    session: 3,
    turn: 2,
    requestBytes: 4096,
    images: 2,
    model: 'lora-a',
    tools: {
      offered: 2,
      calls: [{ name: 'f', argumentChars: 9, check: 'bad-json', problem: 'Unexpected end of JSON input' }],
    },
    toolWaitMs: 120.5,
  };
}

const tokenized: RunTokenizedLine = {
  type: 'tokenized',
  via: 'http://127.0.0.1:8000/tokenize',
  shape: 'vllm',
  // The reader puts these back on the lines: the same counts the lines carry.
  counts: { w0: 5, r0: 5 },
};

const stats = (v: number): MetricStats => ({
  count: 2,
  mean: v,
  median: v,
  std: 0.5,
  min: v - 1,
  max: v + 1,
  p90: v + 0.5,
  p95: v + 0.75,
  p99: v + 0.9,
  p999: v + 0.99,
  vllm: { count: 3, mean: v, median: v, std: 0.5, min: 0, max: v + 1, p90: v, p95: v, p99: v, p999: v },
});
/** By-model rows keep no vLLM variant (the run's own table shows it). */
const ownStats = (v: number): MetricStats => {
  const { vllm: _vllm, ...own } = stats(v);
  return own;
};

const hist = {
  count: 2,
  mean: 4,
  p50: 4,
  p90: 5,
  p99: 6,
  p50Bucket: [2, 5] as [number, number | null],
  p99Bucket: [5, null] as [number, number | null],
};

const summary: RunSummary = {
  source: 'vllm',
  measuredBy: 'tokenscope',
  definitions: 'vllm',
  imported: true,
  partial: false,
  cancelled: true,
  config: { maxConcurrency: 2, requestRate: 'inf', burstiness: 1, numPrompts: 2 },
  vllm: {
    completed: 1,
    failed: 1,
    duration: 1.5,
    total_input_tokens: 8,
    total_output_tokens: 4,
    request_throughput: 0.66,
    request_goodput: 0.5,
    output_throughput: 2.66,
    total_token_throughput: 8,
    max_output_tokens_per_s: 4,
    max_concurrent_requests: 2,
    mean_ttft_ms: 5,
    'p99.9_itl_ms': null,
  },
  stats: {
    ttft: stats(5),
    tpot: stats(2.5),
    itl: stats(2),
    e2el: stats(30),
    itl_per_token: stats(1),
    client_queue_time: stats(0.25),
    first_event: stats(4),
    ttfat: stats(7.5),
  },
  tokens: {
    outputSource: { 'per-event': 1, 'usage-total': 1, estimated: 0 },
    inputFromUsage: 1,
    inputEstimated: 1,
    failedOutput: 4,
    failedInput: 8,
    failedInputEstimated: true,
    peakEstimated: true,
    outputTokenized: 1,
    usageRefused: 1,
  },
  reasoning: { requests: 1, reasoningTokens: 2, answerTokens: 2, estimatedRequests: 1 },
  batch: {
    requests: 1,
    inputs: 4,
    meanInputs: 4,
    minInputs: 4,
    maxInputs: 4,
    inputsPerS: 2,
    inputTokensPerS: 40,
    inputTokensFrom: 'usage',
    dimension: 384,
  },
  byTurn: [
    { turn: 1, andLater: false, requests: 1, failed: 0, meanInputTokens: 8, ttft: stats(5), e2e: stats(30) },
  ],
  byModel: [
    {
      model: 'lora-a',
      requests: 1,
      failed: 0,
      share: 1,
      ttft: ownStats(5),
      tpot: ownStats(2),
      itl: ownStats(2),
      e2el: ownStats(30),
      requestThroughput: 0.5,
      outputThroughput: 2,
      totalOutputTokens: 4,
      errors: {},
    },
  ],
  tools: {
    requests: 1,
    callingRequests: 1,
    errors: 0,
    calls: 1,
    finishToolCalls: 1,
    badJson: 1,
    schemaFailures: 0,
    unknownTool: 0,
    capped: 0,
    failureRate: 1,
    ttftToolMs: stats(5),
    toolItlMs: stats(2),
    textItlMs: stats(3),
    argumentChars: stats(9),
    agentic: {
      sessions: 1,
      steps: 2,
      cappedSessions: 1,
      maxSteps: 2,
      sessionMs: stats(300),
      serverMs: stats(180),
      toolWaitMs: stats(120),
      toolWaitShare: 0.4,
    },
  },
  errorSamples: { 'server/error-event': 'overloaded' },
  errors: { 'server/error-event': 1 },
  coalesced: { gaps: 1, totalGaps: 4, share: 0.25 },
  cancelledRequests: 1,
  warmupRequests: 1,
  slo: { ttftMs: 100, tpotMs: 50, e2elMs: 500 },
  goodRequests: 1,
  selfCheck: {
    eventLoopDelayP99Ms: 1.5,
    eventLoopDelayMaxMs: 3,
    cpuMeanPct: 20,
    cpuMaxPct: 40,
    scheduleLagP99Ms: 0.5,
    flagged: true,
    reasons: ['cpu'],
    thresholds: { eventLoopDelayP99Ms: 20, cpuMeanPct: 85, scheduleLagP99Ms: 50 },
    io: {
      threads: 1,
      loopDelayP99Ms: 1,
      loopDelayMaxMs: 2,
      stalls: 1,
      stallMs: 6,
      gcCount: 2,
      gcPauseMs: 1.5,
      gcMaxMs: 1,
      cpuPct: 12.5,
      reads: 40,
      holds: 3,
      heldMs: 21.5,
      heldMaxMs: 9.25,
    },
    connections: { mode: 'keep-alive', opened: 1, reused: 1, retried: 1 },
    stallTouches: { boundMs: 5, stalls: 1, events: 2, requests: 1, ttft: 1, gaps: 1, ids: ['r0'] },
  },
  serverPhases: {
    requests: 1,
    joined: 1,
    sharedClock: true,
    queueMs: stats(1.5),
    prefillMs: stats(2.25),
    decodeMs: stats(20),
    serverTtftMs: stats(4),
    serverE2eMs: stats(27),
    clientTtftMs: stats(5),
    outsideServerMs: stats(1),
    preQueueMs: stats(0.25),
    sendMs: stats(0.5),
    returnMs: stats(0.5),
  },
  prefixCache: {
    reported: 1,
    hitRequests: 1,
    cachedTokens: 8,
    promptTokens: 12,
    ratio: 8 / 12,
    perRequestRatio: stats(0.5),
    ttftHit: stats(5),
    ttftMiss: stats(9),
    expected: { hitRequests: 1, cachedTokens: 8, ratio: 0.5 },
  },
  upload: {
    requests: 1,
    images: 2,
    requestBytes: stats(4096),
    writeMs: stats(0.5),
    uploadMs: stats(4),
    ttftMs: stats(5),
  },
  replay: {
    speedup: 2,
    requests: 1,
    lagP50Ms: 0.5,
    lagP99Ms: 0.75,
    lagMaxMs: 1,
    boundMs: 10,
    flagged: false,
  },
  server: {
    source: 'prometheus',
    url: 'http://127.0.0.1:9090',
    selector: '{job="vllm"}',
    profile: 'vllm',
    profileName: 'vLLM',
    model: 'm',
    scrapes: 3,
    failures: 1,
    lastError: 'timeout',
    window: { fromMs: 0, toMs: 1500 },
    peak: { running: 2, waiting: 0, kvCacheUsage: 0.5 },
    delta: { generationTokens: 4, promptTokens: 8, preemptions: 0 },
    prefixCache: { hitTokens: 3, queryTokens: 8, hitRate: 0.375, source: 'counters' },
    ttft: hist,
    queueTime: hist,
    e2e: hist,
    itl: hist,
    series: [{ t: 0, running: 1, waiting: 0, kvCacheUsage: 0.25 }],
    energy: {
      method: 'mixed',
      joules: 120,
      gpus: 2,
      windowMs: { fromMs: 0, toMs: 1500 },
      meanPowerW: 80,
      outputTokens: 4,
      joulesPerToken: 30,
      peakUtilPct: 90,
      peakFbUsedMiB: 4096,
    },
    telemetry: [{ url: 'http://127.0.0.1:9400/metrics', error: 'connection refused' }],
    specDecode: {
      source: 'counters',
      drafts: 440,
      draftTokens: 1320,
      acceptedTokens: 660,
      acceptanceRate: 0.5,
      meanAcceptanceLength: 2.5,
      perPosition: [0.7, 0.5, 0.3],
      scrapes: 3,
    },
    roles: [
      {
        role: 'decode',
        url: 'http://127.0.0.1:30001/metrics',
        profile: 'sglang-pd',
        profileName: 'SGLang (prefill/decode disaggregated)',
        scrapes: 3,
        failures: 1,
        lastError: 'timeout',
        window: { fromMs: 0, toMs: 1500 },
        queues: {
          waiting: { mean: 0.5, max: 1, samples: 2 },
          prefillPrealloc: { mean: 0, max: 0, samples: 2 },
          prefillInflight: { mean: 0, max: 0, samples: 2 },
          decodePrealloc: { mean: 1, max: 2, samples: 2 },
          decodeTransfer: { mean: 1.5, max: 3, samples: 2 },
        },
        kvTransfer: { source: 'histogram', ...hist },
      },
    ],
  },
  importInfo: {
    recomputed: ['ttft'],
    reported: ['duration'],
    notes: ['n'],
    metadata: { a: 'x', b: 1, c: true, d: null },
  },
};

type Schema = z.ZodType;
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  element?: Schema;
  valueType?: Schema;
  shape?: Record<string, Schema>;
}
const defOf = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const unwrap = (s: Schema): Schema => {
  const d = defOf(s);
  return d.type === 'optional' || d.type === 'nullable' ? unwrap(d.innerType!) : s;
};

/**
 * The key paths a schema declares that `v` does not set (objects: every key, arrays: each element,
 * records: each value). A recursive field (MetricStats.vllm) is required once, not in itself. The
 * workload is its own schema's output (parseWorkload's defaults) and is not walked.
 */
function everyKeySet(s: Schema, v: unknown, at: string, missing: string[], seen: Set<Schema>): void {
  const d = defOf(s);
  if (at.endsWith('.workload')) return;
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default') {
    if (v === undefined || v === null) missing.push(`${at} (set, not ${String(v)})`);
    else everyKeySet(d.innerType!, v, at, missing, seen);
  } else if (d.type === 'pipe') everyKeySet(d.in!, v, at, missing, seen);
  else if (d.type === 'array' && Array.isArray(v)) {
    if (v.length === 0) missing.push(`${at}[] (empty)`);
    v.forEach((x, i) => everyKeySet(d.element!, x, `${at}[${i}]`, missing, seen));
  } else if (d.type === 'record' && typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) everyKeySet(d.valueType!, x, `${at}.${k}`, missing, seen);
  } else if (d.type === 'object' && typeof v === 'object' && v !== null) {
    const inner = new Set(seen).add(s);
    const shape = (s as unknown as { shape: Record<string, Schema> }).shape;
    for (const [k, sub] of Object.entries(shape)) {
      if (inner.has(unwrap(sub)) && seen.has(s)) continue;
      if (!(k in v)) missing.push(`${at}.${k}`);
      else everyKeySet(sub, (v as Record<string, unknown>)[k], `${at}.${k}`, missing, inner);
    }
  }
}

const unset = (s: Schema, v: unknown, name: string): string[] => {
  const missing: string[] = [];
  everyKeySet(s, v, name, missing, new Set());
  return missing;
};

describe('a run file round trip', () => {
  const lines = [requestLine(0, true), requestLine(0, false)];

  it('the fixtures set every field their schemas declare (a new field must be added here)', () => {
    expect(unset(HeaderSchema, header, 'header')).toEqual([]);
    // The measured line: `warmup` is the one field it leaves out (it is `true` or absent; a
    // warm-up line's scheduledMs is null), and the warm-up line sets it.
    expect(unset(RequestSchema, lines[1], 'request')).toEqual(['request.warmup']);
    expect(lines[0]!.warmup).toBe(true);
    expect(unset(TokenizedLineSchema, tokenized, 'tokenized')).toEqual([]);
    expect(unset(RunSummarySchema, summary, 'summary')).toEqual([]);
    // The walker itself finds what is missing.
    const { clockZeroWall: _, ...short } = header;
    void _;
    expect(unset(HeaderSchema, short, 'header')).toEqual(['header.clockZeroWall']);
  });

  it('writes a maximal header, request lines and summary and reads them back equal', async () => {
    const f = path.join(tmpDir('tokenscope-roundtrip-'), 'max.jsonl');
    const w = await RunFileWriter.create(f, header);
    for (const l of lines) w.append(l);
    w.appendTokenized(tokenized);
    await w.finish(summary);
    const r = await readRunFile(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.problems).toEqual([]);
    expect(r.value.damage).toBeNull();
    expect(r.value.partial).toBe(false);
    expect(r.value.header).toStrictEqual(header);
    expect(r.value.requests).toStrictEqual(lines);
    expect(r.value.summary).toStrictEqual(summary);
  });

  it('a field the schema does not know is dropped on reopen (why the types are the schemas)', async () => {
    const f = path.join(tmpDir('tokenscope-roundtrip-'), 'extra.jsonl');
    const extra = { ...requestLine(1, false), notInTheSchema: 1 };
    writeFileSync(f, [header, extra].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await readRunFile(f);
    expect(r.ok && r.value.requests[0]).not.toHaveProperty('notInTheSchema');
  });
});
