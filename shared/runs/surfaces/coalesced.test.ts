/**
 * Coalesced gaps across a run: vLLM's keys keep them (vLLM's client records them too), Tokenscope's
 * ITL leaves them out and the summary, its text, its JSON and the live stats say how many there were.
 */
import { describe, expect, it } from 'vitest';
import { summarize } from '../../stats/summary.ts';
import { EXACT, recordOf, withoutCoalesced, X, type Row } from '../../testing/records.ts';
import { LiveStats } from '../live/live-stats.ts';
import { outcomeOfLine } from '../summary/outcome.ts';
import { recordToLineWithStats } from '../file/record-line.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import { summarizeRunLines } from '../summary/summarize-run.ts';
import { compareRows } from '../compare/compare.ts';
import { computeRunSummary, vllmStatKeys } from '../summary/summary.ts';
import { summaryJson } from '../summary/json.ts';
import { summaryText } from '../summary/text.ts';
import { importVllmText, toVllmResult } from '../import/vllm-format.ts';
import { parseWorkload } from '../workload/workload.ts';

/** Second request: two reads of two content events each (1 gap of 2 coalesced is measured). */
const TWO_READS: Row[] = [
  [40, 0, 0, 0],
  [50, 1, EXACT[1]![2] | X, 1],
  [50, 1, EXACT[1]![2] | X, 1],
  [80, 1, EXACT[1]![2] | X, 2],
  [80, 1, EXACT[1]![2] | X, 2],
];

function linesOf(rows: Row[][]): RunRequestLine[] {
  return rows.map(
    (r, i) =>
      recordToLineWithStats(recordOf(r), {
        seq: i,
        warmup: false,
        scheduledMs: i * 100,
        arrivedMs: i * 100,
        startedMs: i * 100,
        inputTokensEstimate: 10,
        expectedOutputTokens: null,
        saveText: false,
      }).line,
  );
}

const config = { maxConcurrency: null, requestRate: 'inf' as const, burstiness: 1, numPrompts: 2 };
const summaryOf = (lines: RunRequestLine[]) =>
  computeRunSummary({ outcomes: lines.map((l) => outcomeOfLine(l)), durationS: 1, config });

const coalescedLines = linesOf([EXACT, TWO_READS]);
const plainLines = linesOf([withoutCoalesced(EXACT), withoutCoalesced(TWO_READS)]);
const s = summaryOf(coalescedLines);
const plain = summaryOf(plainLines);

// Every chunk gap (EXACT: 20 30 0 0 10 20 20 0; TWO_READS: 0 30 0) and the measured ones.
const ALL = [20, 30, 0, 0, 10, 20, 20, 0, 0, 30, 0];
const MEASURED = [20, 30, 10, 20, 20, 30];

describe('run summary with coalesced gaps', () => {
  it("keeps vLLM's keys exactly as without coalescing: every gap", () => {
    expect(s.vllm).toEqual(plain.vllm);
    expect(s.vllm.mean_itl_ms).toBeCloseTo(ALL.reduce((a, b) => a + b) / ALL.length, 12);
    expect(s.vllm.median_itl_ms).toBe(summarize(ALL)!.median);
    expect(s.vllm.p99_itl_ms).toBe(summarize(ALL)!.p99);
    expect(s.stats.itl!.vllm!.count).toBe(ALL.length);
    expect(plain.stats.itl!.count).toBe(ALL.length);
  });

  it("leaves them out of Tokenscope's ITL per chunk and per token, and says how many", () => {
    const own = summarize(MEASURED)!;
    expect(s.stats.itl!.count).toBe(MEASURED.length);
    expect(s.stats.itl!.mean).toBeCloseTo(own.mean, 12);
    expect(s.stats.itl!.p99).toBe(own.p99);
    expect(s.stats.itl!.min).toBe(10); // the 0-ms gaps are gone
    // Per token: EXACT's 12 measured values + 30 ms over the 2 tokens of TWO_READS's second read.
    expect(s.stats.itl_per_token!.count).toBe(12 + 2);
    expect(s.stats.itl_per_token!.min).toBe(5);
    expect(plain.stats.itl_per_token!.min).toBe(0);
    expect(s.coalesced).toEqual({ gaps: 5, totalGaps: 11, share: 5 / 11 });
    expect(plain.coalesced).toEqual({ gaps: 0, totalGaps: 11, share: 0 });
    // Nothing coalesced: Tokenscope's ITL is vLLM's, nothing attached.
    expect(plain.stats.itl!.vllm).toBeUndefined();
  });

  it("computes vLLM keys from vLLM's ITL wherever they are written (vllmStatKeys)", () => {
    expect(vllmStatKeys('itl', s.stats.itl)).toEqual(vllmStatKeys('itl', plain.stats.itl));
  });

  it('is unknown (null) for outcomes without read information (imports)', () => {
    const imported = computeRunSummary({
      outcomes: coalescedLines.map((l) => {
        const o = outcomeOfLine(l);
        return {
          ...o,
          itlChunkMeasuredMs: undefined,
          itlTokenMeasuredMs: undefined,
          coalescedGaps: undefined,
        };
      }),
      durationS: 1,
      config,
    });
    expect(imported.coalesced).toBeNull();
    expect(imported.stats.itl).toEqual(plain.stats.itl);
    expect(imported.vllm).toEqual(s.vllm);
  });

  it("every gap coalesced: an empty ITL of ours, vLLM's intact", () => {
    const one = summaryOf(
      linesOf([
        [
          [50, 1, EXACT[1]![2] | X, 0],
          [50, 2, EXACT[1]![2] | X, 0],
        ],
      ]),
    );
    expect(one.coalesced).toEqual({ gaps: 1, totalGaps: 1, share: 1 });
    expect(one.stats.itl!.count).toBe(0);
    expect(one.stats.itl!.p99).toBeNull();
    expect(one.vllm.mean_itl_ms).toBe(0);
    expect(one.vllm.p99_itl_ms).toBe(0);
    expect(one.stats.itl!.vllm!.count).toBe(1);
  });

  it("a vLLM-format export carries vLLM's ITL, and re-imports to the same keys", () => {
    const parsed = parseWorkload({ requests: 2 });
    if (!parsed.ok) throw new Error('workload');
    const header: RunHeader = {
      type: 'header',
      format: 'tokenscope-run',
      version: 1,
      runId: 'r1',
      name: null,
      workload: parsed.value,
      target: { url: 'http://x', dialect: 'openai-chat', model: 'm', headerNames: [], authenticated: false },
      tokenscopeVersion: '0',
      nodeVersion: 'v20',
      platform: 'linux',
      startedAtWall: 0,
      startedAt: '1970-01-01T00:00:00.000Z',
    };
    const sum = summarizeRunLines(header, coalescedLines, { durationS: 1 });
    // The export is under vLLM's rules: every gap between `choices` chunks, each request's role-only
    // first chunk (t = 10, t = 40) included — one gap more per request than the stored vLLM keys.
    const asVllm = summarizeRunLines(header, coalescedLines, { durationS: 1, definitions: 'vllm' });
    expect(asVllm.stats.itl!.count).toBe(sum.stats.itl!.vllm!.count! + 2);
    expect(asVllm.stats.ttft!.mean).toBe((10 + 40) / 2);
    for (const detailed of [false, true]) {
      const json = toVllmResult(header, coalescedLines, sum, { detailed });
      expect(json['mean_itl_ms']).toBe(asVllm.vllm.mean_itl_ms);
      expect(json['p99_itl_ms']).toBe(asVllm.vllm.p99_itl_ms);
      expect(json['tokenscope_definitions']).toBe('vllm');
      const back = importVllmText(JSON.stringify(json));
      if (!back.ok) throw new Error('import');
      const v = back.value.runs[0]!.summary.vllm;
      for (const k of ['mean_itl_ms', 'median_itl_ms', 'std_itl_ms', 'p99_itl_ms'])
        expect(v[k], `${k} detailed=${detailed}`).toBeCloseTo(asVllm.vllm[k]!, 9);
      // Under the same (vLLM's) definitions, the run and its export are the same run.
      const rows = compareRows([asVllm, back.value.runs[0]!.summary]);
      for (const id of ['itl-mean', 'itl-p50', 'itl-p99']) {
        const r = rows.find((x) => x.def.id === id)!;
        expect(r.rel[1], `${id} detailed=${detailed}`).toBeCloseTo(0, 9);
      }
      // Two native runs both know their reads: Tokenscope's ITL (coalesced gaps left out) is compared.
      const own = compareRows([sum, sum]).find((x) => x.def.id === 'itl-mean')!;
      expect(own.values[0]).toBe(sum.stats.itl!.mean);
    }
  });
});

describe('coalesced gaps in the summary text and JSON', () => {
  it("prints the share after vLLM's block, with our ITL without them", () => {
    const t = summaryText(s);
    expect(t).toContain('--------Coalesced Gaps (one socket read)---------');
    expect(t).toContain('Coalesced ITL gaps:                      45.45 % (5 of 11)');
    expect(t).toContain(`Mean ITL excl. coalesced (ms):           ${summarize(MEASURED)!.mean.toFixed(2)}`);
    expect(t).toContain(`Mean ITL (ms):                           ${s.vllm.mean_itl_ms!.toFixed(2)}`);
    expect(t.indexOf('Coalesced ITL gaps')).toBeGreaterThan(t.indexOf('P99 ITL (ms)'));
    const p = summaryText(plain);
    expect(p).toContain('Coalesced ITL gaps:                      0.00 % (0 of 11)');
    expect(p).not.toContain('excl. coalesced');
  });

  it('gives the counts and both ITLs as flat keys', () => {
    const j = summaryJson(s);
    expect(j['coalesced_gaps']).toBe(5);
    expect(j['total_gaps']).toBe(11);
    expect(j['coalesced_gap_share']).toBeCloseTo(5 / 11, 12);
    expect(j['mean_itl_ms']).toBe(s.vllm.mean_itl_ms);
    expect(j['mean_itl_excl_coalesced_ms']).toBeCloseTo(summarize(MEASURED)!.mean, 12);
  });
});

describe('live stats with coalesced gaps', () => {
  it('leave them out of the live ITL and count them, as the summary does', () => {
    const live = new LiveStats();
    for (const l of coalescedLines) live.add(outcomeOfLine(l));
    const snap = live.snapshot();
    expect(snap.itl!.count).toBe(MEASURED.length);
    expect(snap.itl!.p50).toBeGreaterThanOrEqual(19.5); // no 0-ms gap: HdrHistogram ±1 %
    expect(snap.itl_per_token!.count).toBe(s.stats.itl_per_token!.count);
    expect(snap.coalesced).toEqual(s.coalesced);
    live.destroy();
  });

  it('say when ITL per token spreads gaps over estimated counts, as the summary labels it', () => {
    const base = outcomeOfLine(plainLines[0]!);
    expect(base.itlTokenMs?.length).toBeGreaterThan(0);
    const exact = new LiveStats();
    exact.add({ ...base, tokenSource: 'per-event' });
    expect(exact.snapshot().itlPerTokenEstimated).toBeUndefined();
    for (const src of ['usage-total', 'estimated'] as const) {
      const est = new LiveStats();
      est.add({ ...base, tokenSource: 'per-event' });
      est.add({ ...base, tokenSource: src });
      expect(est.snapshot().itlPerTokenEstimated, src).toBe(true);
      est.destroy();
    }
    // A failed request is not in the live numbers, so it does not label them either.
    const failed = new LiveStats();
    failed.add({ ...base, ok: false, tokenSource: 'estimated' });
    expect(failed.snapshot().itlPerTokenEstimated).toBeUndefined();
    exact.destroy();
    failed.destroy();
  });

  it('say nothing of coalescing when the outcomes do not know', () => {
    const live = new LiveStats();
    live.add({ ...outcomeOfLine(plainLines[0]!), coalescedGaps: undefined });
    expect(live.snapshot().coalesced).toBeUndefined();
    live.destroy();
  });
});
