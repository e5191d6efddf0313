import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng.ts';
import { compareRows } from './compare.ts';
import { gateRegressions } from './gate.ts';
import { compareIntervalsForGate } from './intervals.ts';
import { drawRun, type Population } from '../../testing/test-population.ts';

describe('the gate on identical populations', () => {
  it('`--max-regression 5` fails at most 5 % of pairs of runs drawn from one population (n = 100)', () => {
    // The audit's case: 100 requests, 5 % of them failing, Poisson arrivals. Before the gate judged
    // throughputs and counts by their values it failed 22 of 40 such pairs.
    const pop: Population = { n: 100, failShare: 0.05 };
    const pairs = 100;
    let failed = 0;
    let byValue = 0;
    const hits = new Map<string, number>();
    for (let k = 0; k < pairs; k++) {
      const rng = new Rng(7000 + k, 'gate');
      const runs = [drawRun(rng, pop), drawRun(rng, pop)];
      const { intervals, gate } = compareIntervalsForGate(runs, { seed: k });
      const rows = compareRows(
        runs.map((r) => r.summary),
        intervals,
      );
      const g = gateRegressions(rows, gate, 0.05, 0);
      if (g.regressions.length) failed++;
      for (const x of g.regressions) hits.set(x.metric, (hits.get(x.metric) ?? 0) + 1);
      // What a gate on values alone would say: some row worse by more than 5 %.
      if (
        g.ungated.length ||
        rows.some((r) => r.def.better && worseBy(r.rel[1] ?? null, r.def.better) > 0.05)
      )
        byValue++;
    }
    console.log(
      `gate false alarms: ${failed} of ${pairs} (by value alone: ${byValue}); rows: ${JSON.stringify([...hits])}`,
    );
    expect(failed / pairs).toBeLessThanOrEqual(0.05);
    // The population is noisy enough that values alone would fail most pairs.
    expect(byValue / pairs).toBeGreaterThan(0.3);
  }, 120_000);
});

describe('the gate on a real regression', () => {
  it('catches every latency 25 % slower at n = 100, naming the rows', () => {
    const pairs = 12;
    let caught = 0;
    let tpot = 0;
    for (let k = 0; k < pairs; k++) {
      const rng = new Rng(9000 + k, 'gate-power');
      const runs = [drawRun(rng, { n: 100 }), drawRun(rng, { n: 100, scale: 1.25 })];
      const { intervals, gate } = compareIntervalsForGate(runs, { seed: k });
      const rows = compareRows(
        runs.map((r) => r.summary),
        intervals,
      );
      const g = gateRegressions(rows, gate, 0.05, 0);
      if (g.regressions.length) caught++;
      if (g.regressions.some((x) => x.metric === 'tpot-mean' && x.bound > 0.05)) tpot++;
    }
    expect(caught).toBe(pairs);
    expect(tpot).toBeGreaterThanOrEqual(pairs - 2);
  }, 60_000);
});

const worseBy = (rel: number | null, better: 'lower' | 'higher') =>
  rel === null ? 0 : better === 'lower' ? rel : -rel;
