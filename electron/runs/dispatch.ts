/**
 * A request the runner is about to send — where it stands in the run and what it sends — and the
 * run-file line it becomes once it has ended (runner.ts sends it, run-tally.ts counts it).
 */
import { hash32 } from '../../shared/prng.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { ms3, recordToLineWithStats } from '../../shared/runs/file/record-line.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunRequestStart } from '../../shared/runs/live/progress-types.ts';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import type { PromptItem } from './prompts/items.ts';
import { checkToolCall } from '../../shared/tool-calls.ts';
import type { Slots } from './slots.ts';

/** A request about to be sent: where it stands in the run and what it sends. */
export interface Dispatch {
  seq: number;
  warmup: boolean;
  /** Its planned arrival on the run clock (null: warm-up, no schedule). */
  scheduledMs: number | null;
  arrivedMs: number;
  slots: Slots;
  /** The slot was taken already (a closed loop takes it before the arrival). */
  haveSlot: boolean;
  /** The clock zero of its offsets (the run's t0, or the warm-up's). */
  origin: number;
  item: PromptItem;
  spec: RequestSpec;
  /** A turn of a multi-turn conversation (workload sessions): which conversation, which turn (1-based). */
  session?: { index: number; turn: number };
  /** Agentic sessions: the tool latency waited before this step, ms. */
  toolWaitMs?: number;
  /**
   * Handed over ahead of its arrival (lookahead.ts handoffAt): the stream-I/O thread sends it
   * at this instant (performance.now()), and its schedule lag is counted when it starts if
   * `countLag` (it had a slot when it was handed over).
   */
  startAt?: number;
  countLag?: boolean;
}

/** Its request id in the run: r00012 (w for warm-up), s00003t02 for a conversation's turn. */
export function dispatchId(d: Dispatch): string {
  return d.session
    ? `s${String(d.session.index).padStart(5, '0')}t${String(d.session.turn).padStart(2, '0')}`
    : `${d.warmup ? 'w' : 'r'}${String(d.seq).padStart(5, '0')}`;
}

/** What the live view is told when it was sent (`startedMs` on its run clock). */
export function startEvent(d: Dispatch, id: string, startedMs: number): RunRequestStart {
  return {
    id,
    seq: d.seq,
    warmup: d.warmup,
    scheduledMs: d.scheduledMs,
    arrivedMs: d.arrivedMs,
    startedMs,
    queueMs: Math.max(0, startedMs - d.arrivedMs),
  };
}

/** A finished request's line, with its statistics computed once (reused for the live numbers). */
export function dispatchLine(
  d: Dispatch,
  rec: RequestRecord,
  startedMs: number,
  saveText: boolean,
  /** A model mix: the line says which model the request went to. */
  mixed = false,
): { line: RunRequestLine; stats: RequestStats } {
  const { line, stats } = recordToLineWithStats(rec, {
    seq: d.seq,
    warmup: d.warmup,
    scheduledMs: d.scheduledMs,
    arrivedMs: d.arrivedMs,
    startedMs,
    inputTokensEstimate: d.item.inputTokens,
    expectedOutputTokens: d.spec.params?.maxTokens ?? null,
    saveText,
  });
  // The run clock of this line (warm-up lines: the warm-up's), so a line says when it was sent.
  if (rec.startMono !== undefined) line.sentMs = ms3(rec.startMono - d.origin);
  // Schedule lag: actual send − planned send (a concurrency limit's queue time is part of it).
  if (line.sentMs !== undefined && d.scheduledMs !== null) line.lagMs = ms3(line.sentMs - d.scheduledMs);
  line.promptHash = promptHash(d.item);
  // Requests with images: the body's bytes and how many images (the run's `upload` summary).
  if (rec.requestBytes !== undefined) {
    line.requestBytes = rec.requestBytes;
    line.images = d.spec.images?.length ?? 0;
  }
  if (mixed) line.model = d.spec.model;
  if (d.session) {
    line.session = d.session.index;
    line.turn = d.session.turn;
  }
  const tools = d.spec.tools ?? [];
  if (tools.length > 0 || rec.toolCalls?.length)
    line.tools = { offered: tools.length, calls: (rec.toolCalls ?? []).map((c) => checkToolCall(c, tools)) };
  if (d.toolWaitMs !== undefined) line.toolWaitMs = ms3(d.toolWaitMs);
  const cn = rec.connection;
  if (cn) {
    line.connection = {
      reused: cn.reused,
      retried: cn.retries > 0,
      ...(cn.retryReason ? { retryReason: cn.retryReason } : {}),
    };
  }
  return { line, stats };
}

/** What the request sent, as 8 hex digits: the same request in another run (a shard's, a repeat's). */
export function promptHash(item: PromptItem): string {
  const what = item.messages !== undefined ? JSON.stringify(item.messages) : (item.prompt ?? '');
  return hash32(what).toString(16).padStart(8, '0');
}
