/**
 * Many waiters on one AbortSignal, each added and removed in O(1). A load run's signal is shared by
 * every request in flight and every arrival waiting for its time; Node's EventTarget walks its
 * listener list on every addEventListener (to refuse duplicates), so with hundreds waiting each add
 * cost hundreds of steps: 9 % of the measuring thread's time at 500 requests/s. Here the signal
 * gets one listener, the first time it is used, and the waiters are a Set.
 */
const hubs = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` once when `signal` aborts (not at all if it already has: the caller checks
 * `aborted` first, as with addEventListener); returns the function that stops waiting.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let waiters = hubs.get(signal);
  if (!waiters) {
    const set = new Set<() => void>();
    waiters = set;
    hubs.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        const all = [...set];
        set.clear();
        for (const f of all) f();
      },
      { once: true },
    );
  }
  const w = waiters;
  w.add(fn);
  return () => {
    w.delete(fn);
  };
}
