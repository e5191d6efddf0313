/**
 * Sweeps of an embeddings or rerank target (no token stream): curves, knee and table against
 * request throughput with E2E only — no TTFT/ITL/TPOT or per-user series, rows or knee lines, and no
 * x of 0 (output tok/s is 0 at every load for these targets).
 */
import { describe, expect, it } from 'vitest';
import { sweepCurves } from './curves.ts';
import {
  parseSweepFile,
  SWEEP_FILE_FORMAT,
  SWEEP_FILE_VERSION,
  type SweepFile,
  type SweepStep,
} from './file.ts';
import { sloTermsProblem, sweepStreams } from './pooling.ts';
import { parseSlo } from './slo.ts';
import { kneesOf } from './step.ts';
import { saturationReason, stepHeader, stepRow, sweepFooter } from './text.ts';

/** A step at `rate` of an embeddings server that saturates at 40 req/s (4 inputs of 64 tokens each). */
function step(index: number, rate: number): SweepStep {
  const rps = Math.min(rate, 40);
  const e2e = rate <= 40 ? 30 + rate : 70 + (rate - 40) * 40;
  return {
    index,
    role: 'step',
    load: { kind: 'rate', value: rate },
    runFile: `s.step0${index + 1}.jsonl`,
    runId: `r${index}`,
    stoppedEarly: null,
    numbers: {
      completed: 100,
      failed: 0,
      durationS: 10,
      requestsPerS: rps,
      outputTokPerS: 0,
      goodputReqPerS: null,
      tokPerSPerUser: null,
      maxConcurrent: 10,
      ttft: null,
      itl: null,
      tpot: null,
      e2el: { p50: e2e / 2, p90: e2e * 0.9, p99: e2e },
      inputsPerS: rps * 4,
      inputTokPerS: rps * 4 * 64,
    },
    saturation: null,
    slo: null,
  };
}

function file(steps: SweepStep[], dialect = 'openai-embeddings'): SweepFile {
  return {
    format: SWEEP_FILE_FORMAT,
    version: SWEEP_FILE_VERSION,
    sweepId: 'id',
    name: null,
    createdAt: '2026-11-28T00:00:00.000Z',
    target: { url: 'http://x', dialect, model: 'm' },
    workload: {},
    plan: { kind: 'rate', loads: [10, 20, 30, 40, 50, 60], stopOverSaturated: true },
    steps,
    stopped: null,
    knee: kneesOf(steps, 2, sweepStreams({ target: { dialect } })),
    slo: null,
  };
}

const steps = [10, 20, 30, 40, 50, 60].map((r, i) => step(i, r));

describe('sweeps of a target that answers whole', () => {
  it('knows which targets stream: embeddings and rerank do not; an unknown or absent dialect does', () => {
    expect(sweepStreams({ target: { dialect: 'openai-embeddings' } })).toBe(false);
    expect(sweepStreams({ target: { dialect: 'rerank' } })).toBe(false);
    expect(sweepStreams({ target: { dialect: 'openai-chat' } })).toBe(true);
    expect(sweepStreams({ target: { dialect: 'something-new' } })).toBe(true);
    expect(sweepStreams({})).toBe(true);
  });

  it('the knee is on p99 E2E against req/s (the saturation point, 40 req/s); no TTFT knee', () => {
    const f = file(steps);
    expect(f.knee.ttft).toBeNull();
    expect(f.knee.e2el).toMatchObject({ stepIndex: 3, load: 40, throughput: 40 });
    // Against output tok/s (0 everywhere) there would be none: the axis is what makes it.
    expect(kneesOf(steps).e2el).toBeNull();
  });

  it('curves: E2E p50/p90/p99 only, x = achieved req/s (never 0), the knee ringed; no per-user points', () => {
    const c = sweepCurves(file(steps));
    expect(c.streams).toBe(false);
    expect(c.latency.map((s) => s.id)).toEqual(['e2el_p50', 'e2el_p90', 'e2el_p99']);
    for (const s of c.latency) {
      expect(s.xLabel).toBe('req/s');
      expect(s.points.map((p) => p.x)).toEqual([10, 20, 30, 40, 40, 40]);
    }
    const p99 = c.latency.find((s) => s.id === 'e2el_p99')!;
    expect(p99.points.filter((p) => p.knee).map((p) => p.step)).toEqual([3]);
    expect(c.perUser.points).toEqual([]);
    expect(c.goodput[0]!.points.map((p) => p.y)).toEqual([10, 20, 30, 40, 40, 40]);
    // The same numbers under a token target keep the token curves (x = output tok/s).
    const tok = sweepCurves({ ...file(steps, 'openai-chat') });
    expect(tok.streams).toBe(true);
    expect(tok.latency.map((s) => s.id)).toContain('ttft_p99');
  });

  it('table: req/s, inputs/s, input tok/s and E2E p50/p90/p99; no out tok/s, tok/s/user, TTFT or ITL', () => {
    const head = stepHeader(false);
    expect(head).toMatch(
      /^step\s+load\s+req\/s\s+inputs\/s\s+in tok\/s\s+goodput\s+E2E p50\/p90\/p99\s+note$/,
    );
    expect(head).not.toMatch(/TTFT|ITL|out tok|user/);
    const row = stepRow(steps[3]!, false);
    expect(row).toMatch(/^\s+4\s+rate 40\/s\s+40\s+160\s+10240\s+–\s+35\/63\/70$/);
    // Columns line up with the header.
    expect(row.length).toBeLessThanOrEqual(head.length);
    expect(stepHeader()).toMatch(/TTFT p50\/p99/);
  });

  it('footer: one knee line, E2E against req/s; an over-saturated stop speaks of E2E, not TTFT', () => {
    const f = { ...file(steps), stopped: { reason: 'over-saturated' as const, atStep: 5 } };
    const foot = sweepFooter(f);
    expect(foot).not.toMatch(/TTFT|tok\/s/);
    expect(foot).toMatch(/^Knee \(p99 E2E vs req\/s\): step 4, rate 40\/s — 40 req\/s at p99 E2E 70 ms/m);
    expect(foot).toMatch(/E2E latency rising/);
    const sat: SweepStep['saturation'] = {
      overSaturated: true,
      atMs: 3000,
      ttft: { slopePerS: 50, rise: 2, gain: 120, minGain: 20, windows: 7, significant: true },
      outstanding: null,
      queue: {
        windowMs: 2000,
        arrived: 90,
        completed: 70,
        growth: 20,
        halves: [10, 10],
        tolerance: 6,
        significant: true,
      },
    };
    expect(saturationReason(sat, false)).toMatch(/, E2E \+120 ms$/);
    expect(saturationReason(sat)).toMatch(/, TTFT \+120 ms$/);
  });

  it('the file keeps inputs/s and input tok/s, and an older file without them still reads', () => {
    const f = file(steps);
    const back = parseSweepFile(JSON.parse(JSON.stringify(f)));
    expect(back.ok && back.value.steps[0]!.numbers.inputTokPerS).toBe(2560);
    const { inputsPerS: _a, inputTokPerS: _b, ...old } = steps[0]!.numbers;
    expect(parseSweepFile({ ...f, steps: [{ ...steps[0], numbers: old }] }).ok).toBe(true);
  });

  it('SLO terms on TTFT, ITL or TPOT are refused for such a target, with the field named', () => {
    const t = parseSlo('p99_ttft_ms<=50,p99_e2el_ms<=100,mean_itl_ms<=5');
    if (!t.ok) throw new Error(t.error);
    expect(sloTermsProblem(t.value, false, '--slo')).toMatch(
      /^--slo: p99_ttft_ms, mean_itl_ms: an embeddings or rerank target answers whole/,
    );
    expect(sloTermsProblem(t.value, true, '--slo')).toBeNull();
    const e2e = parseSlo('p99_e2el_ms<=100,error_rate<=0.01');
    if (!e2e.ok) throw new Error(e2e.error);
    expect(sloTermsProblem(e2e.value, false, '--slo')).toBeNull();
  });
});
