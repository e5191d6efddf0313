/**
 * Over-saturation of a sweep step: the server no longer keeps up with the offered load. After
 * GuideLLM's over-saturation constraint (vllm-project/guidellm,
 * src/guidellm/scheduler/constraints/over_saturation.py: the slopes of TTFT and of concurrent
 * requests over time, each significant by a t-test), made robust to the odd slow request by
 * testing the medians of time windows instead of the raw points.
 *
 * Definition: split the step so far into `windows` equal time windows and drop the first (the
 * step filling up from nothing); in each other window take the median of TTFT (of requests that
 * finished in it, counted from their arrival: a wait for a concurrency slot included) and of outstanding requests (sent or queued, not yet done; sampled a few times a
 * second). Fit a least-squares line to (window middle, median). A series is *rising significantly*
 * when its slope is above zero at one-sided 95 % confidence (slope − t·SE > 0, t with n − 2 degrees
 * of freedom), its fitted rise over the windows is at least `minRise` (default 1: it doubled) of
 * its fitted start (for outstanding requests, of at least 1 request), AND the rise matters against
 * the service time: TTFT rose by at least W = max(`serviceShare` (¼) × the service time,
 * `minRiseMs` (20 ms)), and outstanding requests by at least the requests that arrive in W at the
 * offered rate (at least 2). The service time is what a request takes without queueing: the
 * step's median of E2E − TTFT (its decode) plus its lowest TTFT (its prefill) — not the median
 * E2E, which grows with the very queue being judged. A doubling of a small number — TTFT from one decode step to two,
 * 10 → 20 ms, at 40 % of capacity — is not a queue growing; a queue that grows without bound soon
 * adds more waiting than a whole request takes. The step is over-saturated when both series rise
 * significantly, after at least `minMs` and 5 windows with data.
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
  outstanding: SlopeFit | null;
}

/** One-sided 95 % critical values of Student's t, df 1…30; 1.645 beyond. */
const T95 = [
  6.314, 2.92, 2.353, 2.132, 2.015, 1.943, 1.895, 1.86, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753,
  1.746, 1.74, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697,
];
const t95 = (df: number): number => (df >= 1 && df <= 30 ? T95[df - 1]! : 1.645);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
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
  const significant = slope - t95(n - 2) * se > 0 && rise >= minRise && gain >= minGain;
  return { slope, se, start, rise, gain, minGain, n, significant };
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

  constructor(o: SaturationOptions = {}) {
    this.windows = o.windows ?? 8;
    this.minRise = o.minRise ?? 1;
    this.minMs = o.minMs ?? 3000;
    this.serviceShare = o.serviceShare ?? 0.25;
    this.minRiseMs = o.minRiseMs ?? 20;
    this.offeredPerS = o.offeredPerS ?? null;
  }

  /** A request finished at `atMs` (ms into the step) with this TTFT and E2E. */
  addRequest(atMs: number, ttftMs: number, e2eMs: number): void {
    this.ttft.push([atMs, ttftMs]);
    this.minTtft = Math.min(this.minTtft, ttftMs);
    if (Number.isFinite(e2eMs)) this.decode.push(Math.max(0, e2eMs - ttftMs));
  }

  /** Requests sent or queued, not yet finished, at `atMs`. */
  addOutstanding(atMs: number, n: number): void {
    this.outstanding.push([atMs, n]);
  }

  check(nowMs: number): SaturationVerdict {
    const fit = (pts: [number, number][], floor: number, minGain: number): SlopeFit | null =>
      fitSlope(
        windowMedians(pts, nowMs, this.windows).filter(([mid]) => mid > nowMs / this.windows),
        this.minRise,
        floor,
        minGain,
      );
    // The waiting that matters: a quarter of a request's service time, 20 ms at least.
    const serviceMs = this.decode.length ? median(this.decode) + this.minTtft : 0;
    const waitMs = Math.max(this.serviceShare * serviceMs, this.minRiseMs);
    const ttft = fit(this.ttft, 0, waitMs);
    const outstanding = fit(this.outstanding, 1, Math.max(2, ((this.offeredPerS ?? 0) * waitMs) / 1000));
    const ready = nowMs >= this.minMs && (ttft?.n ?? 0) >= Math.min(this.windows - 1, 5);
    return {
      overSaturated: ready && !!ttft?.significant && !!outstanding?.significant,
      judged: ready && outstanding !== null,
      atMs: nowMs,
      ttft,
      outstanding,
    };
  }
}
