import { describe, expect, it } from 'vitest';
import { nextAutoStep, rateVerdicts, spacedRates, type AutoPlan } from './auto.ts';
import type { SweepLoad, SweepStep } from './file.ts';

/** A step with the given verdict; request rate as offered (the baseline's and ceiling's given). */
function step(
  index: number,
  load: SweepLoad,
  role: SweepStep['role'],
  rps: number,
  over: boolean,
): SweepStep {
  return {
    index,
    role,
    load,
    runFile: null,
    runId: `r${index}`,
    stoppedEarly: over ? 'over-saturated' : null,
    numbers: {
      completed: 100,
      failed: 0,
      durationS: 1,
      requestsPerS: rps,
      outputTokPerS: rps * 10,
      goodputReqPerS: null,
      tokPerSPerUser: null,
      maxConcurrent: null,
      ttft: null,
      itl: null,
      tpot: null,
      e2el: null,
    },
    saturation: over ? { overSaturated: true, atMs: 500, ttft: null, outstanding: null } : null,
    slo: null,
  };
}

/**
 * Plays a whole sweep: a server of `capacity` req/s, baseline at `base`, a ceiling measured at
 * `ceiling`; a rate is over-saturated above capacity, and `falseAlarms` once each (noise).
 */
function play(o: {
  capacity: number;
  base: number;
  ceiling: number;
  plan: AutoPlan;
  falseAlarms?: number[];
}): SweepStep[] {
  const steps: SweepStep[] = [];
  const alarms = new Set(o.falseAlarms ?? []);
  for (let guard = 0; guard < 50; guard++) {
    const n = nextAutoStep(steps, o.plan);
    if (!n) return steps;
    const i = steps.length;
    if (n.role === 'baseline') steps.push(step(i, n.load, n.role, o.base, false));
    else if (n.role === 'ceiling') steps.push(step(i, n.load, n.role, o.ceiling, false));
    else {
      const r = n.load.value as number;
      const noise = alarms.delete(r);
      steps.push(step(i, n.load, n.role, Math.min(r, o.capacity), r > o.capacity || noise));
    }
  }
  throw new Error('no end');
}

const plan: AutoPlan = { steps: 5, refine: 4, precision: 0.05, confirm: true };
const trail = (s: SweepStep[]): string[] =>
  s.map((x) => `${x.role} ${x.load.value}${x.stoppedEarly ? '!' : ''}`);

describe('rate auto: what runs next', () => {
  it('baseline, ceiling, the grid, then refinement that brackets the capacity to 5 %', () => {
    const s = play({ capacity: 100, base: 25, ceiling: 97, plan });
    expect(trail(s)).toEqual([
      'baseline 1',
      'ceiling inf',
      'step 37',
      'step 49',
      'step 61',
      'step 73',
      'step 85',
      'refine 127.5!', // 1.5× the highest good rate
      'confirm 127.5!',
      'refine 106.3!', // then halfway
      'confirm 106.3!',
      'refine 95.65',
      'refine 101!',
      'confirm 101!',
    ]);
    const v = rateVerdicts(s);
    expect(Math.max(...v.good)).toBeGreaterThanOrEqual(95);
    expect(v.bad).toEqual([101, 106.3, 127.5]);
  });

  it('a ceiling far under capacity (all sent at once on a busy client) does not cap the climb', () => {
    const s = play({ capacity: 100, base: 25, ceiling: 70, plan });
    const v = rateVerdicts(s);
    expect(Math.max(...v.good)).toBeGreaterThanOrEqual(90);
  });

  it('a false alarm is run again, found good, and the climb goes on', () => {
    const s = play({ capacity: 100, base: 25, ceiling: 97, plan, falseAlarms: [49] });
    expect(trail(s).slice(2, 6)).toEqual(['step 37', 'step 49!', 'confirm 49', 'step 61']);
    expect(Math.max(...rateVerdicts(s).good)).toBeGreaterThanOrEqual(95);
  });

  it('a confirmed over-saturation ends the grid; the refinement goes between it and the last good rate', () => {
    const s = play({ capacity: 55, base: 25, ceiling: 97, plan });
    expect(trail(s)).toEqual([
      'baseline 1',
      'ceiling inf',
      'step 37',
      'step 49',
      'step 61!',
      'confirm 61!',
      'refine 55', // halfway between 49 and 61
      'refine 58!',
      'confirm 58!',
      'refine 56.5!',
      'confirm 56.5!',
    ]);
  });

  it('--refine 0 is the grid alone; without stopping (no confirmation) one verdict decides', () => {
    expect(trail(play({ capacity: 100, base: 25, ceiling: 97, plan: { ...plan, refine: 0 } })).length).toBe(
      7,
    );
    const s = play({ capacity: 55, base: 25, ceiling: 97, plan: { ...plan, confirm: false } });
    expect(s.some((x) => x.role === 'confirm')).toBe(false);
    expect(rateVerdicts(s, false).bad[0]).toBe(56.5);
  });

  it('a step too short (or a client too busy) to be judged is not a good rate', () => {
    const judged = step(2, { kind: 'rate', value: 40 }, 'step', 40, false);
    judged.saturation = { overSaturated: false, judged: true, atMs: 900, ttft: null, outstanding: null };
    const unjudged = step(3, { kind: 'rate', value: 80 }, 'refine', 35, false);
    unjudged.saturation = { overSaturated: false, judged: false, atMs: 200, ttft: null, outstanding: null };
    expect(rateVerdicts([judged, unjudged])).toEqual({ good: [40], bad: [], unjudged: [80] });
    // Above the highest good rate, an unjudged one tops the bracket: the next is halfway.
    const base = step(0, { kind: 'concurrency', value: 1 }, 'baseline', 10, false);
    const ceil = step(1, { kind: 'rate', value: 'inf' }, 'ceiling', 70, false); // grid: 40
    expect(nextAutoStep([base, ceil, judged, unjudged], { ...plan, steps: 1 })).toEqual({
      load: { kind: 'rate', value: 60 },
      role: 'refine',
    });
  });

  it('spacedRates: K rates strictly between baseline and ceiling, evenly', () => {
    expect(spacedRates(10, 50, 3)).toEqual([20, 30, 40]);
    expect(spacedRates(50, 10, 3)).toEqual([]);
  });
});
