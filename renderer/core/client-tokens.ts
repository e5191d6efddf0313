/**
 * The output tokens this client received, per target and wall-clock second, from the stream
 * debugger's requests and the live run's swimlane batches alike: what the metrics panel draws
 * beside a server's token counter (some servers count a request's tokens only when it completes,
 * so a long stream reads 0 tok/s there, then a spike). In core/: the request and run features
 * write it, the metrics feature reads it.
 */

/** Seconds kept per target (the panel's longest window is 15 minutes). */
const KEEP_S = 3600;

/** @internal exported for its tests */
export interface RatePoint {
  t: number;
  v: number | null;
}

/** @internal exported for its tests */
export class ClientTokens {
  private readonly perTarget = new Map<string, Map<number, number>>();

  /** `tokens` received at wall time `wallMs` from `targetId`. */
  add(targetId: string, wallMs: number, tokens: number): void {
    if (!(tokens > 0) || !Number.isFinite(wallMs)) return;
    let m = this.perTarget.get(targetId);
    if (!m) {
      m = new Map();
      this.perTarget.set(targetId, m);
    }
    const s = Math.floor(wallMs / 1000);
    m.set(s, (m.get(s) ?? 0) + tokens);
    if (m.size > KEEP_S + 60) for (const k of m.keys()) if (k < s - KEEP_S) m.delete(k);
  }

  /** Whether any token from `targetId` arrived in [startMs, endMs]. */
  any(targetId: string, startMs: number, endMs: number): boolean {
    const m = this.perTarget.get(targetId);
    if (!m) return false;
    for (const k of m.keys()) if (k * 1000 >= startMs - 999 && k * 1000 <= endMs) return true;
    return false;
  }

  /**
   * Tokens/s over [startMs, endMs] in steps of `stepMs` (whole seconds): one point at each step's
   * start, held until the next (a step series), the step still filling left out.
   */
  series(targetId: string, startMs: number, endMs: number, stepMs = 1000, nowMs = endMs): RatePoint[] {
    const m = this.perTarget.get(targetId);
    if (!m) return [];
    const stepS = Math.max(1, Math.round(stepMs / 1000));
    const first = Math.floor(startMs / 1000 / stepS) * stepS;
    const out: RatePoint[] = [];
    for (let s = first; (s + stepS) * 1000 <= Math.min(endMs, nowMs); s += stepS) {
      let sum = 0;
      for (let k = s; k < s + stepS; k++) sum += m.get(k) ?? 0;
      out.push({ t: s * 1000, v: sum / stepS });
    }
    return out;
  }

  clear(): void {
    this.perTarget.clear();
  }
}

export const clientTokens = new ClientTokens();
