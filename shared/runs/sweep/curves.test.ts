import { describe, expect, it } from 'vitest';
import { sweepCurves } from './curves.ts';
import {
  parseSweepFile,
  SWEEP_FILE_FORMAT,
  SWEEP_FILE_VERSION,
  type SweepFile,
  type SweepStep,
} from './file.ts';
import { kneesOf } from './step.ts';
import { stepHeader, stepRow, sweepFooter } from './text.ts';

/** A step at `rate` of a server that saturates at 40 req/s (100 output tokens each). */
function step(index: number, rate: number | 'inf', role: SweepStep['role'] = 'step'): SweepStep {
  const offered = rate === 'inf' ? 1000 : rate;
  const rps = Math.min(offered, 40);
  const ttft = offered <= 40 ? 20 + offered : 20 + 40 + (offered - 40) * 30;
  const p = (x: number) => ({ p50: x / 2, p90: x * 0.9, p99: x });
  return {
    index,
    role,
    load: { kind: 'rate', value: rate },
    runFile: `s.step0${index + 1}.jsonl`,
    runId: `r${index}`,
    stoppedEarly: null,
    numbers: {
      completed: 100,
      failed: 0,
      durationS: 10,
      requestsPerS: rps,
      outputTokPerS: rps * 100,
      goodputReqPerS: offered <= 40 ? rps : rps / 4,
      tokPerSPerUser: 50 - offered / 10,
      maxConcurrent: 10,
      ttft: p(ttft),
      itl: p(10),
      tpot: p(20),
      e2el: p(ttft + 2000),
    },
    saturation: null,
    slo: null,
  };
}

function file(steps: SweepStep[]): SweepFile {
  return {
    format: SWEEP_FILE_FORMAT,
    version: SWEEP_FILE_VERSION,
    sweepId: 'id',
    name: null,
    createdAt: '2026-11-26T00:00:00.000Z',
    target: { url: 'http://x', dialect: 'openai-chat', model: 'm' },
    workload: {},
    plan: { kind: 'rate', loads: [10, 20, 30, 40, 50, 60], stopOverSaturated: true },
    steps,
    stopped: null,
    knee: kneesOf(steps),
    slo: null,
  };
}

describe('sweep curves, knee and file', () => {
  // Offered out of order on purpose: curves and knees follow the offered load.
  const steps = [10, 20, 30, 40, 50, 60].map((r, i) => step(i, r));
  const f = file(steps);

  it('the TTFT knee is the saturation point (40 req/s); E2E, whose p99 barely moves before, agrees', () => {
    expect(f.knee.ttft).toMatchObject({ stepIndex: 3, load: 40, elasticity: 'inf' });
    expect(f.knee.e2el).toBeNull(); // 2030 → 2650 ms: it never doubled
  });

  it("the rate-inf ceiling and over-saturated steps stay out of the knee: it is the curve's own, not the last finite step", () => {
    // An M/M/1 server of 40 req/s at ρ = 0.1 … 0.9 (p99 TTFT 10 / (1 − ρ) ms): on [0.1, 0.9] the
    // knee is at ρ* = 1 − √(0.8 / (10 − 1/0.9)) = 0.7, i.e. 28 req/s. A rate-inf step's p99 of 3 s
    // squeezed every finite step to the bottom of the scaled axes, and its knee to the last one.
    const mm1 = [4, 8, 12, 16, 20, 24, 28, 32, 36].map((r, i) => {
      const s = step(i + 1, r);
      const ms = 10 / (1 - r / 40);
      s.numbers.outputTokPerS = r * 100;
      s.numbers.ttft = { p50: ms / 2, p90: ms, p99: ms };
      return s;
    });
    const ceiling = step(0, 'inf', 'ceiling');
    ceiling.numbers.ttft = { p50: 1500, p90: 2800, p99: 3000 };
    const over = step(10, 39);
    over.stoppedEarly = 'over-saturated';
    over.saturation = { overSaturated: true, atMs: 3000, ttft: null, outstanding: null };
    over.numbers.ttft = { p50: 900, p90: 1800, p99: 2000 };
    const k = kneesOf([ceiling, ...mm1, over]).ttft!;
    expect(k).toMatchObject({ load: 28, stepIndex: 7 });
    // The same points with only the finite, steady steps: the same knee.
    expect(kneesOf(mm1).ttft).toEqual(k);
  });

  it('series: every latency percentile against output tok/s, the knee marked on p99 TTFT only', () => {
    const c = sweepCurves(f);
    expect(c.latency.map((s) => s.id)).toEqual([
      'ttft_p50',
      'ttft_p90',
      'ttft_p99',
      'itl_p50',
      'itl_p90',
      'itl_p99',
      'tpot_p50',
      'tpot_p90',
      'tpot_p99',
      'e2el_p50',
      'e2el_p90',
      'e2el_p99',
    ]);
    const p99 = c.latency.find((s) => s.id === 'ttft_p99')!;
    expect(p99.points.map((p) => [p.x, p.y])).toEqual([
      [1000, 30],
      [2000, 40],
      [3000, 50],
      [4000, 60],
      [4000, 360],
      [4000, 660],
    ]);
    expect(p99.points.filter((p) => p.knee).map((p) => p.step)).toEqual([3]);
    expect(c.latency.find((s) => s.id === 'ttft_p50')!.points.some((p) => p.knee)).toBe(false);
    expect(c.perUser.points.map((p) => p.y)).toEqual([49, 48, 47, 46, 45, 44]);
    const [thr, good] = c.goodput;
    expect(thr!.points.map((p) => [p.x, p.y])).toEqual([
      [10, 10],
      [20, 20],
      [30, 30],
      [40, 40],
      [50, 40],
      [60, 40],
    ]);
    expect(good!.points.map((p) => p.y)).toEqual([10, 20, 30, 40, 10, 10]);
    expect(c.loadKind).toBe('rate');
  });

  it('a rate-inf ceiling ends the latency curves but has no place on the offered-load axis; a search repeat keeps the last run', () => {
    const s = [
      step(0, 'inf', 'ceiling'),
      step(1, 20, 'search'),
      step(2, 20, 'search'),
      step(3, 10, 'search'),
    ];
    s[1]!.numbers.outputTokPerS = 1; // superseded by step 2
    const c = sweepCurves(file(s));
    const thr = c.goodput[0]!;
    expect(thr.points.map((p) => [p.x, p.step])).toEqual([
      [10, 3],
      [20, 2],
    ]);
    expect(c.latency[0]!.points.map((p) => p.step)).toEqual([3, 2, 0]);
  });

  it('the file round-trips through its schema; a wrong version or a broken step is refused', () => {
    const text = JSON.stringify(f);
    const r = parseSweepFile(JSON.parse(text));
    expect(r.ok && r.value).toEqual(f);
    expect(parseSweepFile({ ...f, version: 2 }).ok).toBe(false);
    const bad = parseSweepFile({ ...f, steps: [{ ...steps[0], load: { kind: 'rate', value: -1 } }] });
    expect(!bad.ok && bad.error).toMatch(/steps\.0\.load/);
  });

  it('text: one aligned row per step, the knee, an over-saturated stop', () => {
    const over = { ...steps[5]!, stoppedEarly: 'over-saturated' as const };
    expect(stepHeader()).toMatch(/^step\s+load\s+req\/s\s+out tok\/s/);
    expect(stepRow(steps[0]!)).toMatch(
      /^\s+1\s+rate 10\/s\s+10\s+1000\s+10\s+49\s+15\/30\s+5\/10\s+1015\/2030$/,
    );
    expect(stepRow(over)).toContain('OVER-SATURATED: stopped early');
    const foot = sweepFooter({ ...f, stopped: { reason: 'over-saturated', atStep: 5 } });
    expect(foot).toContain(
      'Knee (p99 TTFT vs output tok/s): step 4, rate 40/s — 4000 tok/s at p99 TTFT 60 ms',
    );
    expect(foot).toContain('Stopped at step 6');
  });
});
