/**
 * The engine's only clock for latency: monotonic, sub-millisecond (performance.now() is backed
 * by the OS monotonic clock in Node; resolution ~µs). Wall time (Date.now) only labels runs.
 */
export const now: () => number = () => performance.now();

/**
 * Wall-clock label for "when did this start" (epoch ms) — never used for a duration. Derived from
 * the monotonic clock's origin so labels and offsets can't disagree if the system clock steps.
 */
export const wallNow: () => number = () => performance.timeOrigin + performance.now();
