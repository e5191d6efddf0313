/**
 * Over-saturation of a sweep step: the server no longer keeps up with the offered load. After
 * GuideLLM's over-saturation constraint (vllm-project/guidellm,
 * src/guidellm/scheduler/constraints/saturation.py: the slopes of TTFT and of concurrent requests
 * over time, each significant by a t-test), with two changes a step of a few seconds needs: the
 * TTFT slope is fitted to window medians (robust to the odd slow request), and "concurrent
 * requests rising" is asked as what it means — the server completes fewer requests than arrive —
 * with a tolerance from the arrivals' own noise, where a t-test on a short, bursty series of
 * counts calls a Poisson burst a trend (GuideLLM waits 30 s before it judges at all).
 *
 * Two signals, both required:
 *
 * 1. **The queue grows beyond noise** (achieved throughput below offered). Over the judged window
 *    — the step so far without its first of `windows` parts (the step filling up from nothing) —
 *    requests arrived A and completed C; outstanding requests (sent or queued, not done) went up
 *    by G = A − C. A server that keeps up has G ≈ 0: at a steady load, outstanding requests are a
 *    count of mean λ·s (Little's law: arrival rate × service time), and for Poisson arrivals that
 *    count is Poisson (an M/G/∞ queue), so between two instants it changes with variance about
 *    2·λ·s. G counts only when it is above `noiseZ` (2) × √(2·(1 + cv²·λ·s)) — cv² the arrival
 *    process's squared coefficient of variation (Poisson 1, constant 0: a constant-rate client's
 *    count moves by rounding only, the 1), or the service times' when they vary more (a server
 *    that stalls now and then; up to 1), λ the window's arrival rate, s the service time. A
 *    server that does not keep up has G ≈ (λ − capacity) × window: at 1.2× a capacity of 50
 *    req/s, 10 more requests a second. And it keeps growing: in each half of the window by more
 *    than half the tolerance — a burst or a stall (a GC pause, a late timer) raises the queue
 *    once, and a server that keeps up drains it.
 * 2. **TTFT rises significantly**: split the step so far into `windows` equal time windows, drop
 *    the first, take the median TTFT of the requests that finished in each (counted from their
 *    arrival: a wait for a concurrency slot included) and fit a least-squares line to (window
 *    middle, median). It rises significantly when its slope is positive as GuideLLM asks it
 *    (margin of error t·SE / slope under 2, t the two-sided 95 % quantile with n − 2 degrees of
 *    freedom), its fitted rise is at least `minRise` (1: doubled) of its fitted start, AND it
 *    matters against the service time: at least
 *    max(`serviceShare` (¼) × the service time, `minRiseMs` (20 ms)). A doubling of a small
 *    number — TTFT from one decode step to two, 10 → 20 ms, at 40 % of capacity — is no queue.
 *
 * The service time is what a request takes without queueing: the step's median E2E − TTFT (its
 * decode) plus its lowest TTFT (its prefill) — not the median E2E, which grows with the very queue
 * being judged. No verdict before `minMs`. With TTFTs in fewer than 5 windows (few requests
 * finish: a low rate, or a server so swamped nothing comes back) (1) decides alone, as GuideLLM's
 * check does with too few TTFTs. The outstanding requests' slope is still fitted and recorded (with
 * its t-test), as information: the verdict is (1) and (2).
 */

export interface SaturationOptions {
  /** Time windows the step is split into (default 8). */
  windows?: number;
  /** Fitted rise over the step as a share of the fitted start (default 1: doubled). */
  minRise?: number;
  /** No verdict before this many ms of the step (default 3000). */
  minMs?: number;
  /** TTFT must rise by at least this share of the service time (default 0.25). */
  serviceShare?: number;
  /** …and by at least this many ms (default 20). */
  minRiseMs?: number;
  /** The step's offered rate (req/s): outstanding must grow by what arrives in that time (default: 2 requests). */
  offeredPerS?: number;
  /**
   * The arrival process's squared coefficient of variation of its gaps: 1 Poisson (default), 0
   * constant, 1/burstiness gamma. How much the arrivals' count wanders by itself.
   */
  arrivalCv2?: number;
  /** Standard deviations of that noise the queue must grow by (default 2). */
  noiseZ?: number;
}

/** Signal 1: the queue's growth over the judged window against the arrivals' noise. @internal exported for its tests */
export interface QueueGrowth {
  /** From the first outstanding sample in the judged window to the last, ms. */
  windowMs: number;
  /** Requests that arrived in the window (growth + completed). */
  arrived: number;
  /** Requests that completed in it. */
  completed: number;
  /** Outstanding requests at its end minus at its start. */
  growth: number;
  /** …over its first and its second half. */
  halves: [number, number];
  /** The growth the arrivals' noise explains at a steady load (noiseZ standard deviations). */
  tolerance: number;
  significant: boolean;
}

export interface SlopeFit {
  /** Per second. */
  slope: number;
  /** Standard error of the slope, per second. */
  se: number;
  /** Fitted value at the first window's middle. */
  start: number;
  /** Fitted rise over the windows, as a share of max(start, floor). */
  rise: number;
  /** Fitted rise over the windows, in the series' unit (ms, requests). */
  gain: number;
  /** The rise it needed to count (same unit). */
  minGain: number;
  /** Windows with data. */
  n: number;
  significant: boolean;
}

export interface SaturationVerdict {
  overSaturated: boolean;
  /** There was enough of the step to judge (minMs, and TTFT in 5 windows): else no verdict either way. */
  judged: boolean;
  /** ms into the step when it was judged. */
  atMs: number;
  ttft: SlopeFit | null;
  /** Informational: the slope of outstanding requests (the verdict asks `queue` instead). */
  outstanding: SlopeFit | null;
  queue: QueueGrowth | null;
}

/** Two-sided 95 % (0.975 quantile) critical values of Student's t, df 1…30; 1.96 beyond. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const t975 = (df: number): number => (df >= 1 && df <= 30 ? T975[df - 1]! : 1.96);
/** GuideLLM's margin-of-error threshold: a slope counts when t(97.5 %)·SE / slope is below it. */
const MOE_MAX = 2;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Squared coefficient of variation (variance / mean²); 0 for fewer than 2 values or a mean of 0. */
function cv2Of(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (!(m > 0)) return 0;
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) / (m * m);
}

/** Medians of `points` ([ms, value]) in `windows` equal windows of [0, endMs]: [middle ms, median][]. @internal exported for its tests */
export function windowMedians(
  points: readonly (readonly [number, number])[],
  endMs: number,
  windows: number,
): [number, number][] {
  const w = endMs / windows;
  const bins: number[][] = Array.from({ length: windows }, () => []);
  for (const [t, v] of points) {
    if (!(t >= 0 && t <= endMs) || !Number.isFinite(v)) continue;
    bins[Math.min(windows - 1, Math.floor(t / w))]!.push(v);
  }
  const out: [number, number][] = [];
  bins.forEach((b, i) => {
    if (b.length > 0) out.push([(i + 0.5) * w, median(b)]);
  });
  return out;
}

/** Least-squares slope of [ms, value] points (per second) and whether it rises significantly. @internal exported for its tests */
export function fitSlope(
  pts: readonly (readonly [number, number])[],
  minRise: number,
  floor = 0,
  minGain = 0,
): SlopeFit | null {
  const n = pts.length;
  if (n < 3) return null;
  const xs = pts.map((p) => p[0] / 1000);
  const ys = pts.map((p) => p[1]);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  if (sxx <= 0) return null;
  const slope = sxy / sxx;
  let rss = 0;
  for (let i = 0; i < n; i++) rss += (ys[i]! - (my + slope * (xs[i]! - mx))) ** 2;
  const se = Math.sqrt(rss / (n - 2) / sxx);
  const start = my + slope * (xs[0]! - mx);
  const gain = slope * (xs[n - 1]! - xs[0]!);
  const base = Math.max(start, floor);
  const rise = base > 0 ? gain / base : gain > 0 ? Infinity : 0;
  // GuideLLM's test (saturation.py SlopeChecker.check_slope): positive, with a margin of error
  // t(97.5 %)·SE / slope under 2 — looser than a one-sided slope − t(95 %)·SE > 0: the queue's
  // growth against the arrivals' noise is the verdict's test; this one asks that TTFT agrees.
  const significant = slope > 0 && (t975(n - 2) * se) / slope < MOE_MAX && rise >= minRise && gain >= minGain;
  return { slope, se, start, rise, gain, minGain, n, significant };
}

/**
 * Signal 1 over [fromMs, the last sample]: outstanding samples ([ms, n]) give the growth, the
 * completion times the completed count; null without two samples in it, or without one in its
 * middle half.
 @internal exported for its tests */
export function queueGrowth(
  outstanding: readonly (readonly [number, number])[],
  doneAtMs: readonly number[],
  fromMs: number,
  serviceMs: number,
  arrivalCv2: number,
  z: number,
): QueueGrowth | null {
  const first = outstanding.find(([t]) => t >= fromMs);
  const last = outstanding[outstanding.length - 1];
  if (!first || !last || !(last[0] > first[0])) return null;
  const windowMs = last[0] - first[0];
  const completed = doneAtMs.filter((t) => t > first[0] && t <= last[0]).length;
  const growth = last[1] - first[1];
  const arrived = Math.max(0, growth + completed);
  // Outstanding at a steady load: mean λ·s, variance cv²·λ·s (Poisson: an M/G/∞ count), plus
  // one for rounding; its change between two instants has twice that variance.
  const steady = (arrived / windowMs) * serviceMs;
  const tolerance = z * Math.sqrt(2 * (1 + arrivalCv2 * steady));
  // A burst or a stall raises the queue once, and a server that keeps up drains it: a queue that
  // grows without bound grows in both halves of the window.
  const midT = (first[0] + last[0]) / 2;
  const mid = outstanding.reduce((a, b) => (Math.abs(b[0] - midT) < Math.abs(a[0] - midT) ? b : a), first);
  // Samples too sparse to see the middle (a client too busy to tick): no verdict either way.
  if (Math.abs(mid[0] - midT) > windowMs / 4) return null;
  const halves: [number, number] = [mid[1] - first[1], last[1] - mid[1]];
  const significant = growth > tolerance && Math.min(...halves) > tolerance / 2;
  return { windowMs, arrived, completed, growth, halves, tolerance, significant };
}

/** Collects a step's TTFTs and outstanding counts as they come, and judges over-saturation. */
export class SaturationMonitor {
  private readonly ttft: [number, number][] = [];
  /** E2E − TTFT of each request: its decode. */
  private readonly decode: number[] = [];
  private minTtft = Infinity;
  private readonly outstanding: [number, number][] = [];
  private readonly windows: number;
  private readonly minRise: number;
  private readonly minMs: number;
  private readonly serviceShare: number;
  private readonly minRiseMs: number;
  private readonly offeredPerS: number | null;
  private readonly arrivalCv2: number;
  private readonly noiseZ: number;

  constructor(o: SaturationOptions = {}) {
    this.windows = o.windows ?? 8;
    this.minRise = o.minRise ?? 1;
    this.minMs = o.minMs ?? 3000;
    this.serviceShare = o.serviceShare ?? 0.25;
    this.minRiseMs = o.minRiseMs ?? 20;
    this.offeredPerS = o.offeredPerS ?? null;
    this.arrivalCv2 = o.arrivalCv2 ?? 1;
    this.noiseZ = o.noiseZ ?? 2;
  }

  /** A request finished at `atMs` (ms into the step) with this TTFT and E2E. */
  addRequest(atMs: number, ttftMs: number, e2eMs: number): void {
    this.ttft.push([atMs, ttftMs]);
    this.minTtft = Math.min(this.minTtft, ttftMs);
    if (Number.isFinite(e2eMs)) this.decode.push(Math.max(0, e2eMs - ttftMs));
  }

  /** Requests sent or queued, not yet finished, at `atMs` (in time order). */
  addOutstanding(atMs: number, n: number): void {
    this.outstanding.push([atMs, n]);
  }

  /** Both signals at `nowMs`, from what had come in by then. */
  private signals(nowMs: number, serviceMs: number): Omit<SaturationVerdict, 'judged'> {
    const fromMs = nowMs / this.windows;
    const fit = (pts: [number, number][], floor: number, minGain: number): SlopeFit | null =>
      fitSlope(
        windowMedians(pts, nowMs, this.windows).filter(([mid]) => mid > fromMs),
        this.minRise,
        floor,
        minGain,
      );
    // The waiting that matters: a quarter of a request's service time, 20 ms at least.
    const waitMs = Math.max(this.serviceShare * serviceMs, this.minRiseMs);
    const ttft = fit(this.ttft, 0, waitMs);
    const outstanding = fit(this.outstanding, 1, Math.max(2, ((this.offeredPerS ?? 0) * waitMs) / 1000));
    const samples = this.outstanding.filter(([t]) => t <= nowMs);
    const done = this.ttft.map(([t]) => t);
    // The server's own variability counts too (a count of requests in service wanders with their
    // service times as with their arrivals): the decode times' squared coefficient of variation,
    // up to a Poisson count's.
    const cv2 = Math.max(this.arrivalCv2, Math.min(1, cv2Of(this.decode)));
    const queue = queueGrowth(samples, done, fromMs, serviceMs, cv2, this.noiseZ);
    // Too few windows with a TTFT (few requests finish: a low rate, or a server swamped): the
    // queue decides alone, as GuideLLM's check does when its TTFT window is too small.
    const ttftReady = (ttft?.n ?? 0) >= Math.min(this.windows - 1, 5);
    // …as long as something finished in it: a server that answers nothing at all is stalled or
    // gone, not shown to be over-saturated (and a step stopped with nothing done is a failed one).
    const overSaturated = !!queue?.significant && (ttftReady ? !!ttft?.significant : queue.completed > 0);
    return { overSaturated, atMs: nowMs, ttft, outstanding, queue };
  }

  check(nowMs: number): SaturationVerdict {
    const serviceMs = this.decode.length ? median(this.decode) + this.minTtft : 0;
    const now = this.signals(nowMs, serviceMs);
    const ready = nowMs >= this.minMs;
    return { ...now, overSaturated: ready && now.overSaturated, judged: ready && now.queue !== null };
  }
}
