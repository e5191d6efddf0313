/**
 * The stream-I/O threads' figures taken together (the worst delay, stalls and GC of any, reads
 * summed), and the measuring thread's step back in priority once they exist (io-engine.ts).
 */
import os from 'node:os';
import type { IoLoopStats } from './protocol.ts';

export function emptyStats(): IoLoopStats {
  return {
    spanMs: 0,
    loopDelayP99Ms: 0,
    loopDelayMaxMs: 0,
    stalls: 0,
    stallMs: 0,
    gcCount: 0,
    gcPauseMs: 0,
    gcMaxMs: 0,
    cpuPct: null,
    reads: 0,
    holds: 0,
    heldMs: 0,
    heldMaxMs: 0,
    batches: 0,
    stallWindows: [],
  };
}

/** Several threads' figures as one: the worst delay, stalls and GC of any; reads and holds summed. */
export function combine(list: IoLoopStats[]): IoLoopStats | null {
  if (list.length === 0) return null;
  const out = emptyStats();
  for (const s of list) {
    out.spanMs = Math.max(out.spanMs, s.spanMs);
    out.loopDelayP99Ms = Math.max(out.loopDelayP99Ms, s.loopDelayP99Ms);
    out.loopDelayMaxMs = Math.max(out.loopDelayMaxMs, s.loopDelayMaxMs);
    out.stalls += s.stalls;
    out.stallMs = Math.max(out.stallMs, s.stallMs);
    out.gcCount += s.gcCount;
    out.gcPauseMs = Math.max(out.gcPauseMs, s.gcPauseMs);
    out.gcMaxMs = Math.max(out.gcMaxMs, s.gcMaxMs);
    out.cpuPct = s.cpuPct === null ? out.cpuPct : Math.max(out.cpuPct ?? 0, s.cpuPct);
    out.reads += s.reads;
    out.holds += s.holds;
    out.heldMs += s.heldMs;
    out.heldMaxMs = Math.max(out.heldMaxMs, s.heldMaxMs);
    out.batches += s.batches;
    for (const x of s.stallWindows) out.stallWindows.push(x);
  }
  return out;
}

/** How many nice steps this thread steps back once I/O threads exist (see yieldToIoThreads). */
const MEASURING_THREAD_NICE_STEP = 10;

/**
 * The nice value the measuring thread takes from `current`: 10 steps back, at most 19.
 * @internal exported for its tests
 */
export function measuringThreadNice(current: number): number {
  return Math.min(19, current + MEASURING_THREAD_NICE_STEP);
}

/**
 * Called only when the engine configuration asks (`lowerPriority`: the app and the CLI, unless
 * TOKENSCOPE_NO_NICE). On Linux the nice value is per thread: this thread (decoding, statistics, run files, IPC) steps
 * back so that when both want the CPU — one core shared, a wave of requests ending — the kernel
 * runs the I/O thread, whose stamps are the product, first. The I/O threads were created before
 * (they keep the process's nice). The step is relative: a process started at `nice -n -5` (to
 * win over a busy machine's other work) keeps that edge, its measuring thread at 5 rather than
 * below everything at 10. Elsewhere setpriority would lower the whole process, I/O threads
 * included, so nothing is done. Not undone later: an unprivileged process cannot raise its
 * priority back.
 */
export function yieldToIoThreads(): void {
  if (process.platform !== 'linux') return;
  try {
    const now = os.getPriority(0);
    const target = measuringThreadNice(now);
    if (target > now) os.setPriority(0, target);
  } catch {
    // not permitted here: the threads still run, only without the priority hint
  }
}
