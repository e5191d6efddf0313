import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng.ts';
import { fitSlope, SaturationMonitor, windowMedians } from './saturation.ts';

/**
 * A step of `ms` with a request finishing every `every` ms (E2E: its TTFT + `decodeMs`) and
 * outstanding sampled every 250 ms.
 */
function feed(
  m: SaturationMonitor,
  ms: number,
  ttft: (t: number) => number,
  out: (t: number) => number,
  decodeMs = 60,
  every = 20,
): void {
  for (let t = every; t <= ms; t += every) {
    const v = ttft(t);
    m.addRequest(t, v, v + decodeMs);
  }
  for (let t = 0; t <= ms; t += 250) m.addOutstanding(t, out(t));
}

describe('over-saturation', () => {
  it('a growing queue (TTFT and outstanding rising linearly) is over-saturated', () => {
    const m = new SaturationMonitor({ minMs: 1000 });
    const rng = new Rng(1, 'sat');
    feed(
      m,
      4000,
      (t) => 30 + t * 0.2 + rng.next() * 20,
      (t) => 4 + t / 100,
    );
    const v = m.check(4000);
    expect(v.overSaturated).toBe(true);
    expect(v.ttft!.slope).toBeGreaterThan(150); // ~200 ms per s
    expect(v.outstanding!.rise).toBeGreaterThan(1);
  });

  it('a steady server with noisy TTFT and the odd outlier is not', () => {
    const m = new SaturationMonitor({ minMs: 1000 });
    const rng = new Rng(2, 'steady');
    feed(
      m,
      4000,
      () => 30 + rng.next() * 30 + (rng.next() < 0.02 ? 2000 : 0),
      () => 4 + Math.floor(rng.next() * 3),
    );
    expect(m.check(4000).overSaturated).toBe(false);
  });

  it('TTFT rising by one decode step (10 → 20 ms) at 40 % load is not over-saturation', () => {
    // The audit's false stop: 10-ms decode steps, 8-token answers (E2E ≈ 80 ms), 20 req/s offered;
    // TTFT's median moved from one step to two and outstanding from 1 to 3, both "significant".
    const step = (o: ConstructorParameters<typeof SaturationMonitor>[0]): SaturationMonitor => {
      const m = new SaturationMonitor(o);
      const rng = new Rng(4, 'one-step');
      feed(
        m,
        4000,
        (t) => (t < 2000 ? 10 : 20) + rng.next(),
        (t) => 1 + Math.floor(t / 1500),
        70,
        50,
      );
      return m;
    };
    const v = step({ minMs: 1000, offeredPerS: 20 }).check(4000);
    expect(v.ttft!.gain).toBeGreaterThan(8);
    expect(v.ttft!.gain).toBeLessThan(v.ttft!.minGain);
    // A quarter of the service time (decode 70 ms + the lowest TTFT, 10 ms), 20 ms at least.
    expect(v.ttft!.minGain).toBeCloseTo(20, 0);
    expect(v.overSaturated).toBe(false);
    // The rule before: a doubling of the fitted start was enough.
    const old = step({ minMs: 1000, serviceShare: 0, minRiseMs: 0 }).check(4000);
    expect(old.ttft!.significant && old.outstanding!.significant).toBe(true);
    expect(old.overSaturated).toBe(true);
  });

  it('a queue growing by a fraction of capacity is over-saturated once it adds half a service time', () => {
    // 10 % over a capacity of 50 req/s: 5 more requests and 100 ms more waiting every second.
    const m = new SaturationMonitor({ minMs: 1000, offeredPerS: 55 });
    const rng = new Rng(5, 'slow-queue');
    feed(
      m,
      3000,
      (t) => 15 + t * 0.1 + rng.next() * 10,
      (t) => 4 + Math.floor(t / 200),
      70,
    );
    const v = m.check(3000);
    // A quarter of decode 70 ms + lowest TTFT ~15 ms — not of the median E2E, which the queue
    // itself inflates.
    expect(v.ttft!.minGain).toBeLessThan(25);
    expect(v.ttft!.gain).toBeGreaterThan(v.ttft!.minGain);
    expect(v.outstanding!.gain).toBeGreaterThan(v.outstanding!.minGain);
    expect(v.overSaturated).toBe(true);
  });

  it('needs both: TTFT rising with outstanding falling (a burst draining) is not over-saturation', () => {
    const m = new SaturationMonitor({ minMs: 1000 });
    feed(
      m,
      4000,
      (t) => 10 + t * 0.5,
      (t) => Math.max(0, 100 - t / 40),
    );
    const v = m.check(4000);
    expect(v.ttft!.significant).toBe(true);
    expect(v.overSaturated).toBe(false);
  });

  it('a calm step filling up from nothing (outstanding 0 → ~2, TTFT settling) is not', () => {
    // Seen on the simulator at 40 % of its capacity before the first window was dropped.
    const m = new SaturationMonitor({ minMs: 1000 });
    const rng = new Rng(3, 'fill');
    feed(
      m,
      3000,
      (t) => (t < 400 ? 10 : 12) + rng.next() * 6,
      (t) => (t < 300 ? t / 150 : 1 + Math.floor(rng.next() * 3)),
    );
    expect(m.check(3000).overSaturated).toBe(false);
  });

  it('no verdict before minMs', () => {
    const m = new SaturationMonitor({ minMs: 5000 });
    feed(
      m,
      4000,
      (t) => 30 + t,
      (t) => 4 + t / 10,
    );
    expect(m.check(4000).overSaturated).toBe(false);
  });

  it('a small but steady drift is significant yet below minRise', () => {
    const pts: [number, number][] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i * 500 + 250, 100 + i]);
    const f = fitSlope(pts, 1)!;
    expect(f.slope).toBeCloseTo(2, 6);
    expect(f.se).toBeCloseTo(0, 6);
    expect(f.rise).toBeCloseTo(7 / 100, 6);
    expect(f.significant).toBe(false);
    expect(fitSlope(pts, 0.05)!.significant).toBe(true);
  });

  it('windowMedians: one median per non-empty window at its middle', () => {
    const w = windowMedians(
      [
        [10, 1],
        [20, 3],
        [30, 100],
        [260, 7],
      ],
      400,
      4,
    );
    expect(w).toEqual([
      [50, 3],
      [250, 7],
    ]);
  });
});
