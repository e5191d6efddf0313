/**
 * The engine's only clock for latency: monotonic, sub-millisecond (performance.now() is backed
 * by the OS monotonic clock in Node; resolution ~µs). Wall time (Date.now) only labels runs.
 */
export const now: () => number = () => performance.now();

/** Wall-clock label for "when did this start" — never used for a duration. */
export const wallNow: () => number = () => Date.now();
