import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng.ts';
import { byModelOf } from '../summary/by-model.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import { blankOutcome } from '../summary/outcome.ts';
import { computeRunSummary } from '../summary/summary.ts';
import { compareByModel, modelIntervals, modelRowId } from './by-model.ts';
import { compareRows, type CompareRow } from './compare.ts';
import { poolRuns } from './pooled.ts';

/** n requests of one model whose latencies are `scale` times a common distribution. */
function requests(rng: Rng, model: string, n: number, scale: number, failed = 0): RequestOutcome[] {
  return Array.from({ length: n }, (_, i) => {
    const itl = Array.from({ length: 10 }, () => 20 * scale * Math.exp(0.2 * rng.normal()));
    const ttft = 80 * scale * Math.exp(0.3 * rng.normal());
    const e2e = ttft + itl.reduce((a, b) => a + b, 0);
    return {
      ...blankOutcome(i >= failed),
      ttftMs: ttft,
      e2eMs: e2e,
      tpotMs: (e2e - ttft) / 10,
      outputTokens: 11,
      itlChunkMs: itl,
      model,
    };
  });
}

/** A run of the given models' requests interleaved, sent every 10 ms over 10 s, with its by-model numbers. */
function run(seed: number, parts: [model: string, n: number, scale: number, failed?: number][], mix = true) {
  const rng = new Rng(seed, 'mix');
  const lists = parts.map(([m, n, scale, failed]) => requests(rng, m, n, scale, failed));
  const outcomes: RequestOutcome[] = [];
  for (let k = 0; lists.some((l) => k < l.length); k++)
    for (const l of lists) if (k < l.length) outcomes.push({ ...l[k]!, startMs: outcomes.length * 10 });
  const config = {} as never;
  const summary = computeRunSummary({ outcomes, durationS: 10, config });
  const byModel = mix
    ? byModelOf({
        outcomes,
        models: outcomes.map((o) => o.model),
        durationS: 10,
        config,
        definitions: 'tokenscope',
      })
    : undefined;
  if (byModel) summary.byModel = byModel;
  return { summary, outcomes: mix ? outcomes : outcomes.map(({ model: _m, ...o }) => o) };
}

const rowsById = (rows: CompareRow[]) => new Map(rows.map((r) => [r.def.id, r]));

describe('compareByModel', () => {
  const a = run(1, [
    ['fast', 400, 1],
    ['slow', 400, 3],
  ]);
  const b = run(2, [
    ['fast', 400, 1.5],
    ['slow', 400, 3],
    ['lora', 60, 1],
  ]);

  it("compares each model's own requests, with intervals from them alone", () => {
    const runs = [a, b];
    const ci = modelIntervals(runs, { replicates: 300 });
    const c = compareByModel(
      runs.map((r) => r.summary),
      ci,
    )!;
    expect(c.models.map((m) => m.model)).toEqual(['fast', 'slow', 'lora']);
    const fast = rowsById(c.models[0]!.rows);
    // B's fast model is 1.5× slower: worse, its interval above zero.
    const p50 = fast.get(modelRowId('fast', 'ttft-p50'))!;
    expect(p50.rel[1]).toBeGreaterThan(0.35);
    expect(p50.ci[1]![0]).toBeGreaterThan(0);
    expect(p50.verdict).toEqual([null, 'worse']);
    expect(fast.get(modelRowId('fast', 'e2el-p50'))!.verdict).toEqual([null, 'worse']);
    expect(fast.get(modelRowId('fast', 'itl-p50'))!.verdict).toEqual([null, 'worse']);
    // 400 requests: 4 above the p99, enough for an interval; the overall rows pool both models.
    expect(fast.get(modelRowId('fast', 'ttft-p99'))!.tooFew).toEqual([false, false]);
    // The slow model did not change: its interval spans zero, whatever the overall p50 says.
    const slow = rowsById(c.models[1]!.rows).get(modelRowId('slow', 'ttft-p50'))!;
    expect(slow.ci[1]![0]).toBeLessThan(0);
    expect(slow.ci[1]![1]).toBeGreaterThan(0);
    expect(slow.verdict[1]).not.toBe('worse');
    expect(slow.verdict[1]).not.toBe('better');
    // Throughput per model: its successful requests over the whole run's duration.
    const tput = rowsById(c.models[0]!.rows).get(modelRowId('fast', 'req-tput'))!;
    expect(tput.values).toEqual([40, 40]);
    expect(tput.ci[1]).not.toBeNull();
    // A share of a run the models share (the other model's change moves it): no verdict on the model.
    expect(tput.def.better).toBeNull();
    expect(tput.verdict).toEqual([null, null]);
    expect(rowsById(c.models[0]!.rows).get(modelRowId('fast', 'out-tput'))!.verdict).toEqual([null, null]);
  });

  it('lists a model only one run sent, with where it is missing, without a change or verdict', () => {
    const c = compareByModel([a.summary, b.summary], modelIntervals([a, b], { replicates: 100 }))!;
    const lora = c.models[2]!;
    expect(lora.present).toEqual([false, true]);
    expect(lora.rows[0]!.def.group).toBe('Model lora — only in B (not in A)');
    const p50 = rowsById(lora.rows).get(modelRowId('lora', 'ttft-p50'))!;
    expect(p50.values[0]).toBeNull();
    expect(p50.values[1]).toBeGreaterThan(0);
    expect(p50.rel).toEqual([null, null]);
    expect(p50.verdict).toEqual([null, null]);
    // With B as the baseline, the model is missing from the other side.
    const swapped = compareByModel([b.summary, a.summary], modelIntervals([b, a], { replicates: 100 }))!;
    expect(swapped.models.map((m) => m.model)).toEqual(['fast', 'slow', 'lora']);
    expect(swapped.models[2]!.rows[0]!.def.group).toBe('Model lora — only in A (not in B)');
  });

  it('says which runs have no mix at all, and is null when none has one', () => {
    const plain = run(3, [['fast', 50, 1]], false);
    const c = compareByModel([a.summary, plain.summary])!;
    expect(c.noMix).toEqual([1]);
    // A run without a mix is not "missing" a model: the heading names none.
    expect(c.models[0]!.rows[0]!.def.group).toBe('Model fast');
    expect(compareByModel([plain.summary, plain.summary])).toBeNull();
    expect(modelIntervals([plain, plain]).size).toBe(0);
  });

  it('marks a model’s latency unreliable where its own failure rate differs clearly', () => {
    const failing = run(4, [
      ['fast', 400, 1, 120],
      ['slow', 400, 3],
    ]);
    const runs = [a, failing];
    const c = compareByModel(
      runs.map((r) => r.summary),
      modelIntervals(runs, { replicates: 200 }),
    )!;
    const fast = rowsById(c.models[0]!.rows);
    expect(fast.get(modelRowId('fast', 'fail-rate'))!.values).toEqual([0, 30]);
    expect(fast.get(modelRowId('fast', 'fail-rate'))!.verdict).toEqual([null, 'worse']);
    expect(fast.get(modelRowId('fast', 'ttft-p50'))!.unreliable).toEqual([false, true]);
    const slow = rowsById(c.models[1]!.rows);
    expect(slow.get(modelRowId('slow', 'ttft-p50'))!.unreliable).toEqual([false, false]);
    // The overall failure rate differs too: the overall rows are marked, as before.
    expect(rowsById(compareRows(runs.map((r) => r.summary))).get('ttft-p50')!.unreliable).toEqual([
      false,
      true,
    ]);
  });

  it('without intervals, verdicts come from the values (as the overall rows without one)', () => {
    const c = compareByModel([a.summary, b.summary])!;
    const p50 = rowsById(c.models[0]!.rows).get(modelRowId('fast', 'ttft-p50'))!;
    expect(p50.ci).toEqual([null, null]);
    expect(p50.verdict).toEqual([null, 'worse']);
  });

  it('compares at most as many models as a mix can list; the rest are counted', () => {
    const names = Array.from({ length: 70 }, (_, i) => `m${i}`);
    const many = run(
      5,
      names.map((m) => [m, 2, 1] as [string, number, number]),
    );
    const c = compareByModel([many.summary, many.summary])!;
    expect(c.models).toHaveLength(64);
    expect(c.more).toBe(6);
    expect(new Set(modelIntervals([many, many], { replicates: 20 }).keys()).size).toBeLessThanOrEqual(64 * 9);
  });

  it('pooled repeats keep their numbers by model', () => {
    const pooled = poolRuns([
      { header: null, ...a },
      { header: null, ...b },
    ]);
    expect(pooled.summary.byModel?.map((r) => [r.model, r.requests])).toEqual([
      ['fast', 800],
      ['slow', 800],
      ['lora', 60],
    ]);
  });
});
