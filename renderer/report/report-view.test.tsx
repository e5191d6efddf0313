// @vitest-environment happy-dom
/**
 * The report shows what the app shows: the same run through the report's data (built, written
 * into a page and read back) gives the app's summary numbers and statistics table, the same lanes,
 * series over time and histograms — with the swimlane's ticks thinned too — and the same
 * comparison rows and intervals as the app's comparison view computes.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildReportData,
  detailColumns,
  loadedOfDetail,
  reportRun,
} from '../../shared/report/report-data.ts';
import { scriptSafeJson } from '../../shared/report/report-html.ts';
import type { ReportData } from '../../shared/report/report-types.ts';
import { compareIntervalsAsync } from '../../shared/runs/compare/intervals.ts';
import { compareRows } from '../../shared/runs/compare/compare.ts';
import { deriveRun } from '../runs/summary/run-detail.ts';
import { RunDetailView } from '../runs/summary/RunSummaryView.tsx';
import { runDetail } from '../testing/run-fixture.ts';
import { energyOf, serverWithEnergy } from '../testing/server-fixture.ts';
import { comparisonView } from './ReportCompare.tsx';
import { ReportApp } from './ReportApp.tsx';
import { deriveReportRun, readReportData } from './report-view.ts';

afterEach(cleanup);

/** Through the page and back, as the report reads it. */
function roundTrip<T>(v: T): T {
  return JSON.parse(scriptSafeJson(v)) as T;
}

function build(details: ReturnType<typeof runDetail>[], replicates?: number): ReportData {
  const r = buildReportData({
    runs: details,
    compare: details.length > 1 ? details.map(loadedOfDetail) : null,
    replicates,
    tokenscopeVersion: 'test',
    generatedAtWall: Date.UTC(2026, 0, 2),
  });
  if (!r.ok) throw new Error(r.error.message);
  return roundTrip(r.value);
}

describe('the report against the app', () => {
  it('derives the same lanes, series and histograms as the app from the run lines, thinned or not', () => {
    const d = runDetail(40);
    const app = deriveRun(d);
    for (const budget of [100_000, 30]) {
      const rr = roundTrip(reportRun(d, budget));
      if (budget === 30) expect(rr.lanes!.ticksKept).toBeLessThan(rr.lanes!.events);
      const rep = deriveReportRun(rr);
      expect(rep.throughput).toEqual(app.throughput);
      expect(rep.concurrency).toEqual(app.concurrency);
      expect(rep.xMax).toBe(app.xMax);
      expect(rep.hist).toEqual(app.hist);
      const a = app.lanes!;
      const b = rep.lanes!;
      expect(b.n).toBe(a.n);
      expect(b.rows).toBe(a.rows);
      for (const k of ['arrivedMs', 'startedMs', 'endMs', 'ttftMs', 'status', 'row', 'outTokens'] as const)
        expect([...b[k].slice(0, b.n)], k).toEqual([...a[k].slice(0, a.n)]);
      expect([...b.errors]).toEqual([...a.errors]);
      expect(b.ids).toEqual(a.ids);
      // Thinned ticks carry the tokens of the events left out: none is lost.
      const sum = (x: Uint32Array, n: number) => x.slice(0, n).reduce((p, q) => p + q, 0);
      expect(sum(b.evTok, b.en)).toBe(sum(a.evTok, a.en));
    }
  });

  it("shows the app's summary numbers and statistics table for the same run", () => {
    const d = runDetail(12);
    const data = build([d]);
    const app = render(<RunDetailView detail={d} width={360} />);
    const appNumbers = within(app.container).getByTestId('run-summary-numbers').textContent;
    const appStats = within(app.container).getByTestId('sum-stats').textContent;
    const appText = within(app.container).getByTestId('sum-text').textContent;
    const rep = render(<ReportApp data={data} />);
    expect(within(rep.container).getByTestId('run-summary-numbers').textContent).toBe(appNumbers);
    expect(within(rep.container).getByTestId('sum-stats').textContent).toBe(appStats);
    expect(within(rep.container).getByTestId('sum-text').textContent).toBe(appText);
    expect(appStats).toContain('12.35');
    expect(within(rep.container).getByTestId('report-run-name').textContent).toBe('fixture run');
    expect(rep.container.textContent).not.toMatch(/NaN|undefined/);
  });

  it("shows the run's GPU energy as the app does, through the page and back", () => {
    const d = runDetail(12);
    d.summary = { ...d.summary, server: serverWithEnergy(energyOf(90, 300, 'counter')) };
    const data = build([d]);
    const app = render(<RunDetailView detail={d} width={360} />);
    const appEnergy = within(app.container).getByTestId('sum-energy').textContent;
    expect(appEnergy).toMatch(/^Energy per output token0\.3 J over 300 tokensGPU energy90 J · 2 GPUs/);
    const rep = render(<ReportApp data={data} />);
    expect(within(rep.container).getByTestId('sum-energy').textContent).toBe(appEnergy);
  });

  it("computes the comparison's rows and intervals as the app's comparison view does", async () => {
    const a = runDetail(12);
    const b = { ...runDetail(6), entry: { ...runDetail(6).entry, key: 'b.jsonl', name: 'fewer' } };
    const data = build([a, b]);
    const c = data.comparison!;
    const view = comparisonView(c);
    const app = compareRows(
      [a.summary, b.summary],
      await compareIntervalsAsync(
        [a, b].map((d) => ({ summary: d.summary, outcomes: loadedOfDetail(d).outcomes })),
      ),
    );
    expect(view.rows.map((r) => [r.def.id, r.values, r.rel, r.ci, r.verdict])).toEqual(
      app.map((r) => [r.def.id, r.values, r.rel, r.ci, r.verdict]),
    );
    expect(view.rows.some((r) => r.ci.some(Boolean))).toBe(true);
    render(<ReportApp data={data} />);
    expect(screen.getAllByTestId('report-compare-run').map((li) => li.textContent)).toEqual([
      expect.stringContaining('fixture run'),
      expect.stringContaining('fewer'),
    ]);
    expect(screen.getByTestId('compare-table')).toBeTruthy();
    expect(screen.getAllByTestId('report-run')).toHaveLength(2);
  });

  it('labels pooled repeats by their column (B1, B2 under B) and counts run files and columns alike', () => {
    const a = runDetail(12);
    const rep = (i: number) => {
      const d = runDetail(6 + i);
      return {
        ...d,
        entry: {
          ...d.entry,
          key: `r${i}.jsonl`,
          name: `other · repeat ${i}/2`,
          repeat: { group: 'g', index: i, of: 2 },
        },
        header: { ...d.header!, repeat: { group: 'g', index: i, of: 2 } },
      };
    };
    const details = [a, rep(1), rep(2)];
    const cols = detailColumns(details);
    if (typeof cols === 'string') throw new Error(cols);
    const r = buildReportData({
      runs: details,
      compare: cols,
      tokenscopeVersion: 'test',
      generatedAtWall: Date.UTC(2026, 0, 2),
      replicates: 0,
    });
    if (!r.ok) throw new Error(r.error.message);
    const data = roundTrip(r.value);
    expect(data.comparison!.runColumns).toEqual([0, 1, 1]);
    render(<ReportApp data={data} />);
    expect(screen.getByTestId('report-head-runs').textContent).toBe(
      '3 run files compared as 2 runs: B pools 2 repeats (B1–B2 below)',
    );
    expect(screen.getByRole('heading', { name: 'Comparing 2 runs' })).toBeTruthy();
    expect(screen.getAllByTestId('report-compare-run').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^A fixture run/),
      expect.stringMatching(/^B other \(2 repeats pooled\)/),
    ]);
    // No section is called B: the comparison's B is the pool of B1 and B2.
    expect(screen.getAllByTestId('report-run-letter').map((e) => e.textContent)).toEqual(['A', 'B1', 'B2']);
  });

  it('says why when the page holds no report', () => {
    document.body.innerHTML =
      '<script type="application/json" id="tokenscope-report">"__TOKENSCOPE_REPORT_DATA__"</script>';
    const r = readReportData(document);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/template/);
    document.body.innerHTML =
      '<script type="application/json" id="tokenscope-report">{"format":"x"}</script>';
    const x = readReportData(document);
    expect(!x.ok && x.error.message).toMatch(/not a Tokenscope report/);
  });
});
