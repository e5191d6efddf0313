/**
 * A finished request → its run-file line. Times are rounded to 3 decimals (µs) here, once, and the
 * runner computes its summary from these lines — so the summary written at the end and the one a
 * reader recomputes from the file are the same numbers.
 */
import type { RequestRecord } from '../../record.ts';
import { computeRequestStats, type RequestStats } from '../../stats/request-stats.ts';
import type { RunRequestLine } from './line-schema.ts';

export const ms3 = (v: number): number => Math.round(v * 1000) / 1000;
const ms3n = (v: number | null): number | null => (v === null ? null : ms3(v));

export interface LineContext {
  seq: number;
  warmup: boolean;
  scheduledMs: number | null;
  arrivedMs: number;
  startedMs: number;
  /** The workload's estimate of prompt tokens. */
  inputTokensEstimate: number | null;
  expectedOutputTokens: number | null;
  saveText: boolean;
}

/** @internal exported for its tests */
export function recordToLine(rec: RequestRecord, c: LineContext): RunRequestLine {
  return recordToLineWithStats(rec, c).line;
}

/**
 * The line and the stats computed for it — on its rounded columns, exactly what
 * `statsOfLine(line)` (outcome.ts) would compute — so the caller can pass them to
 * `outcomeOfLine(line, stats)` instead of computing them a second time.
 */
export function recordToLineWithStats(
  rec: RequestRecord,
  c: LineContext,
): { line: RunRequestLine; stats: RequestStats } {
  const ev = rec.events;
  const t: number[] = new Array<number>(ev.n);
  const tok: number[] = new Array<number>(ev.n);
  const f: number[] = new Array<number>(ev.n);
  for (let i = 0; i < ev.n; i++) {
    t[i] = ms3(ev.t[i]!);
    tok[i] = ev.tokens[i]!;
    f[i] = ev.flags[i]!;
  }
  const p = rec.phases;
  const phases = {
    connectedMs: ms3n(p.connectedMs),
    requestWrittenMs: ms3n(p.requestWrittenMs),
    headersMs: ms3n(p.headersMs),
    firstByteMs: ms3n(p.firstByteMs),
    endMs: ms3n(p.endMs),
  };
  const usagePrompt = rec.usage?.promptTokens ?? null;
  const line: RunRequestLine = {
    type: 'request',
    seq: c.seq,
    id: rec.id,
    ...(c.warmup ? { warmup: true as const } : {}),
    scheduledMs: ms3n(c.scheduledMs),
    arrivedMs: ms3(c.arrivedMs),
    startedMs: ms3(c.startedMs),
    queueMs: ms3(c.startedMs - c.arrivedMs),
    inputTokens: usagePrompt ?? c.inputTokensEstimate,
    inputTokensSource: usagePrompt !== null ? 'usage' : 'estimated',
    expectedOutputTokens: c.expectedOutputTokens,
    status: rec.error ? 'error' : 'ok',
    httpStatus: rec.status,
    phases,
    events: { t, tok, f },
    finishReason: rec.finishReason,
    usage: rec.usage,
    tokenSource: rec.tokenSource,
    error: rec.error
      ? {
          kind: rec.error.kind,
          code: rec.error.code,
          message: rec.error.message,
          ...(rec.error.status !== undefined ? { status: rec.error.status } : {}),
          ...(rec.error.atMs !== undefined ? { atMs: ms3(rec.error.atMs) } : {}),
        }
      : null,
    textLength: rec.text.length,
    reasoningLength: rec.reasoning.length,
    bytes: rec.bytes,
    terminated: rec.terminated,
    serverRequestId: rec.serverRequestId,
    ...(rec.trace ? { trace: { ...rec.trace } } : {}),
    ...(rec.responseId !== undefined ? { responseId: rec.responseId } : {}),
    ...(rec.batch ? { batch: { ...rec.batch } } : {}),
    ttftMs: null,
    tpotMs: null,
    e2eMs: null,
    outputTokens: 0,
  };
  if (c.saveText) line.text = rec.text;
  // The convenience copies, computed on the rounded columns as a reader will.
  const s = computeRequestStats({ ...rec, phases, events: { ...ev, n: ev.n, t: Float64Array.from(t) } });
  line.ttftMs = s.ttftMs;
  line.tpotMs = s.tpotMs === null ? null : ms3(s.tpotMs);
  line.e2eMs = s.e2eMs;
  line.outputTokens = s.outputTokens;
  line.tokenSource = s.tokenSource;
  if (s.reasoningTokens !== null) {
    line.reasoningTokens = s.reasoningTokens;
    line.reasoningTokensExact = s.reasoningTokensExact;
    line.ttfatMs = s.firstAnswerMs;
  }
  return { line, stats: s };
}
