/**
 * How far V8 lets the old generation grow past what the last full collection kept, for this
 * process and its worker threads (the CLI's `main`, the Electron main process).
 *
 * V8 sets the next full collection at live × a factor it picks from how fast it marks against how
 * fast the program allocates (heap-controller.cc `MemoryController::GrowingFactor`: 1.1 to 4). The
 * measuring thread marks slowly — it runs at a lower priority than the stream-I/O thread, on a core
 * that thread wins — so V8 measured its marking at ~37 KB/ms against the thread's allocation rate,
 * a ratio of ~20, and chose 4: a 1 M-chunk run with ~25 MB live let its old space swing to 55–110 MB
 * before each collection (BENCHMARKS.md, "The heap's growth factor"). The same function ends with
 * `if (v8_flags.heap_growing_percent > 0) factor = 1 + heap_growing_percent / 100`, read at every
 * full collection, so the flag works when set after start (`v8.setFlagsFromString`), which is the
 * only way a `bin` script or Electron's main process can set it. 50 %: the old space stays within
 * 1.5 × live; a full collection of the measuring thread's ~25 MB takes a few ms of its time, most
 * of it concurrent marking, and runs every few seconds of a 1 M-chunk run.
 */
import v8 from 'node:v8';

/**
 * The old generation grows to at most (1 + this / 100) × what the last full collection kept.
 * @internal exported for its tests
 */
export const HEAP_GROWING_PERCENT = 50;

/** Sets V8's growth factor for this process (every isolate, worker threads included). */
export function limitHeapGrowth(): void {
  try {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  } catch {
    // an embedder that froze V8's flags: the run goes on with V8's own factor
  }
}
