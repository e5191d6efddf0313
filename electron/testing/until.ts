/** Waiting in tests for something asynchronous to become true, bounded (the one copy). */

/** Resolves once `cond` holds; fails after `timeoutMs` saying what was awaited. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  everyMs = 2,
  what: string | (() => string) = 'condition',
): Promise<void> {
  await untilValue(async () => ((await cond()) ? true : undefined), { timeoutMs, everyMs, what });
}

/** The first value `probe` gives that is not undefined; fails after `timeoutMs` saying what was awaited. */
export async function untilValue<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  o: { timeoutMs?: number; everyMs?: number; what?: string | (() => string) } = {},
): Promise<T> {
  const { timeoutMs = 5000, everyMs = 2, what = 'condition' } = o;
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() > end)
      throw new Error(`${typeof what === 'function' ? what() : what}: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
