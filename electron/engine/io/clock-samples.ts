/**
 * Clock offset between two threads' performance.now(): each samples [now, hrtime, now] a few
 * times; hrtime (CLOCK_MONOTONIC) is the same in every thread, so the narrowest bracket of each
 * side gives its now → hrtime offset to well under a microsecond, and the difference of the two
 * puts one thread's times on the other's clock. Measured, not assumed (Node happens to share the
 * origin between threads today; an embedder need not).
 */
export type ClockSample = [number, number, number];

export function clockSamples(n = 20): ClockSample[] {
  const out: ClockSample[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    const hr = Number(process.hrtime.bigint()) / 1e6;
    out.push([a, hr, performance.now()]);
  }
  return out;
}

/** hrtime − now of the thread that took the samples: the narrowest bracket's. */
function hrOffset(samples: ClockSample[]): number {
  let best = Infinity;
  let off = 0;
  for (const [a, h, b] of samples) {
    if (b - a < best) {
      best = b - a;
      off = h - (a + b) / 2;
    }
  }
  return off;
}

/** What to add to the other thread's times to put them on this thread's clock. */
export function clockOffset(theirs: ClockSample[]): number {
  clockSamples(5); // warm the path: the first calls in a thread are slow
  return hrOffset(theirs) - hrOffset(clockSamples());
}
