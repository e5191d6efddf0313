/**
 * What the accuracy bench's processes share (bench/accuracy.bench.ts): the one clock every
 * process compares on, the result a client process writes, the reference server's truth, argument
 * parsing and percentiles. No engine imports here: the orchestrator and the baseline client load
 * this file too, and they must not pull Tokenscope's engine into their process.
 *
 * Clock: CLOCK_MONOTONIC in ms (`process.hrtime.bigint()` / 1e6). It is one clock for every
 * process on the machine, so a server's write time and a client's read stamp compare directly.
 * Doubles hold it to ~0.1 ns at this magnitude (ms since boot).
 */

/** CLOCK_MONOTONIC now, ms. */
export function hrMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * hrMs() − performance.now() in this process (both read the same monotonic clock; this is the
 * constant between their zeros), from the narrowest of several bracketing samples.
 */
export function hrMinusPerf(samples = 200): { offsetMs: number; widthMs: number } {
  let best = Infinity;
  let off = 0;
  for (let i = 0; i < samples; i++) {
    const a = performance.now();
    const h = hrMs();
    const b = performance.now();
    if (b - a < best) {
      best = b - a;
      off = h - (a + b) / 2;
    }
  }
  return { offsetMs: off, widthMs: best };
}

/** One request as a client process saw it. All times on the hrMs() clock. */
export interface ClientRequest {
  /** The server's `x-request-id`. */
  rid: string | null;
  ok: boolean;
  error?: string;
  /** Read stamp of each content chunk (the role chunk, usage and [DONE] are not content). */
  content: number[];
  /** 1 when content chunk k came in the same socket read as the event before it. */
  sameRead: number[];
}

export interface ClientResult {
  client: 'baseline' | 'engine';
  streams: number;
  tokens: number;
  /** First request sent → last response ended. */
  wallMs: number;
  /** Process CPU (user + system, every thread) over wallMs. */
  cpuMs: number;
  cpuPct: number;
  requests: ClientRequest[];
  notes: string[];
  /** Client-specific figures (the engine's own self-check, its I/O threads, …). */
  extra: Record<string, unknown>;
}

/** The reference server's log of one request. */
export interface TruthRequest {
  rid: string;
  /** The request's headers were parsed (its 'request' event ran). */
  arriveMs: number;
  /** Role chunk written (with the response headers, at arrival). */
  roleMs: number;
  /** Each content chunk handed to the kernel (right after res.write). */
  chunks: number[];
  /**
   * Stamp before the write → stamp after it, per chunk: the hand-off to the kernel happened in
   * between. Wide when the server was descheduled around its write (a busy or virtual machine): that
   * chunk's truth is only known to this width, and the bench leaves it out.
   */
  widths: number[];
  complete: boolean;
}

export interface TruthSteps {
  steps: number;
  /** How late a step started against its schedule (timer jitter, a busy loop). */
  lateP50Ms: number;
  lateP99Ms: number;
  lateMaxMs: number;
  /** First write → last write of a step: how far apart "simultaneous" chunks really went out. */
  spanP50Ms: number;
  spanP99Ms: number;
  spanMaxMs: number;
  /** Steps that started a whole step late (the server fell behind). */
  behind: number;
  /** Chunks the kernel did not take at once (socket buffer full): their stamps are early. Should be 0. */
  queuedWrites: number;
}

export interface Truth {
  requests: TruthRequest[];
  steps: TruthSteps;
  cpuPct: number;
}

/** `--name value` / `--flag` arguments. */
export function parseArgs(argv: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) m.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) m.set(a.slice(2), argv[++i]!);
    else m.set(a.slice(2), 'true');
  }
  return m;
}

export function numArg(m: Map<string, string>, name: string, dflt: number): number {
  const v = m.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name}: not a number: ${v}`);
  return n;
}

/** numpy's default (linear) percentile of sorted values; NaN for none. */
export function pct(sorted: Float64Array | number[], p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const x = ((n - 1) * p) / 100;
  const lo = Math.floor(x);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (x - lo);
}

export function sortedOf(v: number[]): Float64Array {
  return Float64Array.from(v).sort();
}
