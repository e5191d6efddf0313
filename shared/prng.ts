/**
 * Seeded randomness, the one generator of the app: workloads (the same seed replays the same
 * prompts and the same arrival schedule on any machine; no Math.random anywhere in runs/) and the
 * simulator (token text, output lengths, step jitter, fault sampling, request ids: the same seed
 * and the same requests give the same bytes and the same timing decisions).
 *
 * Generator: xoshiro128** (Blackman & Vigna), seeded through splitmix32 from (seed, salt). Each
 * concern draws from its own salted stream ("arrivals", "prompt:17", "warmup"…), so changing the
 * prompt source never moves the schedule and adding warm-up requests never changes the measured
 * requests.
 */

/** 32-bit FNV-1a of a string from offset basis `basis`: turns a salt into a seed component. */
function fnv1a(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A well-mixed 32-bit hash of a string and a seed: FNV-1a, then murmur3's fmix32 avalanche so
 * nearby inputs give unrelated values. Stable keys for per-request streams and token ids.
 */
export function hash32(text: string, seed = 0): number {
  let h = fnv1a(text, (0x811c9dc5 ^ seed) >>> 0);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) >>> 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  /** A stream for (seed, salt); the same pair always gives the same sequence. */
  constructor(seed: number, salt = '') {
    const st = { s: ((seed | 0) ^ fnv1a(salt)) >>> 0 };
    this.a = splitmix32(st);
    this.b = splitmix32(st);
    this.c = splitmix32(st);
    this.d = splitmix32(st);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }

  /** Uniform in [0, 1) with 53 bits. */
  next(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Marsaglia polar method; keeps the spare). */
  normal(): number {
    if (this.spareNormal !== null) {
      const s = this.spareNormal;
      this.spareNormal = null;
      return s;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * m;
    return u * m;
  }

  /** Exponential with mean `mean`. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /**
   * Gamma(shape k, scale θ): mean kθ, variance kθ². Marsaglia & Tsang (2000) for k ≥ 1; for
   * k < 1 the boost Gamma(k) = Gamma(k+1)·U^(1/k). Matches numpy.random.gamma's distribution
   * (not its stream: the same seed gives different numbers than numpy).
   */
  gamma(shape: number, scale: number): number {
    if (shape < 1) {
      const u = 1 - this.next();
      return this.gamma(shape + 1, scale) * Math.pow(u, 1 / shape);
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = 1 - this.next();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v * scale;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v * scale;
    }
  }

  /** Lowercase hex string of `n` digits (ids like vLLM's `chatcmpl-<32 hex>`). */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += this.int(0x10000).toString(16).padStart(4, '0');
    return out.slice(0, n);
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(a: T[]): T[] {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
    return a;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
