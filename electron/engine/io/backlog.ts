/**
 * Back-pressure from the measuring side to the stream-I/O thread (docs/ARCHITECTURE.md "Stream
 * I/O"). A socket is read as fast as the kernel delivers; the measuring thread frames and decodes
 * what it is handed, and a server that floods (endless pings, comments, blank lines) can deliver
 * far faster than that. Without flow control the undelivered batches piled up in the message queue
 * (16.5 GB for one request). So each request counts its backlog — bytes handed on and not yet
 * decoded, plus a fixed cost per read — and its socket stops being read while that is over
 * BACKLOG_HIGH_BYTES, and is read again once the measuring side has caught up to BACKLOG_LOW_BYTES.
 * Reads resume in order; each is still stamped first thing when it happens, so a pause shows in
 * the record as the stall it was (a gap, then reads that came together), never as wrong times.
 */

/** Above this backlog a request's socket stops being read (TOKENSCOPE_IO_BACKLOG_KB; 1 MiB). @internal exported for its tests */
export const BACKLOG_HIGH_BYTES = (Number(process.env.TOKENSCOPE_IO_BACKLOG_KB) || 1024) * 1024;
/** Reading resumes once the backlog is down to this. */
const BACKLOG_LOW_BYTES = Math.floor(BACKLOG_HIGH_BYTES / 2);
/**
 * The measuring side reports decoded bytes in steps of at least this (a normal stream of a few
 * tens of KB never sends one); at most this much is unreported, so a drained backlog always
 * reads below BACKLOG_LOW_BYTES.
 */
export const ACK_STEP_BYTES = Math.min(64 * 1024, Math.floor(BACKLOG_LOW_BYTES / 2));
/** What a read costs beyond its bytes on the way and while framed (its stamp, index, length). */
export const READ_COST_BYTES = 64;

/** A request's backlog, kept by the connection driver. */
export interface Backlogged {
  backlog: number;
  paused: boolean;
}

/** A read of `bytes` was handed on: true when the socket should stop being read now. */
export function backlogGrew(b: Backlogged, bytes: number): boolean {
  b.backlog += bytes + READ_COST_BYTES;
  if (b.paused || b.backlog <= BACKLOG_HIGH_BYTES) return false;
  b.paused = true;
  return true;
}

/** The measuring side decoded `bytes`: true when the socket should be read again now. */
export function backlogShrank(b: Backlogged, bytes: number): boolean {
  b.backlog = Math.max(0, b.backlog - bytes);
  if (!b.paused || b.backlog > BACKLOG_LOW_BYTES) return false;
  b.paused = false;
  return true;
}
