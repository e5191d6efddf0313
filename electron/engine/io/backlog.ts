/**
 * Back-pressure from the measuring side to the stream-I/O thread (docs/ARCHITECTURE.md "Stream
 * I/O"). A socket is read as fast as the kernel delivers; the measuring thread frames and decodes
 * what it is handed, and a server that floods (endless pings, comments, blank lines) can deliver
 * far faster than that. Without flow control the undelivered batches piled up in the message queue
 * (16.5 GB for one request). So each request counts its backlog — bytes handed on and not yet
 * decoded, plus a fixed cost per read — and its socket stops being read while that is over
 * its high bound, and is read again once the measuring side has caught up to its low bound.
 * Reads resume in order; each is still stamped first thing when it happens, so a pause shows in
 * the record as the stall it was (a gap, then reads that came together), never as wrong times.
 */

/** Where reading stops and resumes; built from the engine configuration's `backlogHighBytes`. */
export interface BacklogBounds {
  /** Above this backlog a request's socket stops being read (1 MiB by default). */
  high: number;
  /** Reading resumes once the backlog is down to this. */
  low: number;
}

export function backlogBounds(highBytes: number): BacklogBounds {
  return { high: highBytes, low: Math.floor(highBytes / 2) };
}

/**
 * The holds of one thread: times a request's connection stopped being read because the measuring
 * side was behind with it, and how long each lasted (its reads after it are stamped that much late
 * at most). The bound is per request on purpose: a bound over all of a thread's requests (1 MiB
 * shared, at least 4 KB each) was tried and held 1,024 streams of 20-ms tokens up to 721 ms each
 * while the measuring thread caught up, |ITL error| p99 6.65× the plain client's (BENCHMARKS.md).
 */
export interface HoldTally {
  holds: number;
  heldMs: number;
  heldMaxMs: number;
}

export function holdTally(): HoldTally {
  return { holds: 0, heldMs: 0, heldMaxMs: 0 };
}

/**
 * The measuring side reports decoded bytes in steps of at least this (a normal stream of a few
 * tens of KB never sends one); at most this much is unreported, so a drained backlog always
 * reads below the low bound.
 */
export function ackStepBytes(b: BacklogBounds): number {
  return Math.min(64 * 1024, Math.floor(b.low / 2));
}
/** What a read costs beyond its bytes on the way and while framed (its stamp, index, length). */
export const READ_COST_BYTES = 64;

/** A request's backlog, kept by the connection driver. */
export interface Backlogged {
  backlog: number;
  paused: boolean;
}

/** A hold of `ms` ended (reading again, or the request ended while held). */
export function addHold(h: HoldTally, ms: number): void {
  h.holds++;
  h.heldMs += ms;
  if (ms > h.heldMaxMs) h.heldMaxMs = ms;
}

/** A read of `bytes` was handed on: true when the socket should stop being read now. */
export function backlogGrew(b: Backlogged, bytes: number, bounds: BacklogBounds): boolean {
  b.backlog += bytes + READ_COST_BYTES;
  if (b.paused || b.backlog <= bounds.high) return false;
  b.paused = true;
  return true;
}

/** The measuring side decoded `bytes`: true when the socket should be read again now. */
export function backlogShrank(b: Backlogged, bytes: number, bounds: BacklogBounds): boolean {
  b.backlog = Math.max(0, b.backlog - bytes);
  if (!b.paused || b.backlog > bounds.low) return false;
  b.paused = false;
  return true;
}
