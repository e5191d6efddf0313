// @vitest-environment happy-dom
/**
 * A report of a run with tool calls and agentic sessions shows the app's tool-call and agentic
 * cards and its by-step table, with the same text; its comparison has the tool rows.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReportData, loadedOfDetail } from '../../shared/report/report-data.ts';
import { scriptSafeJson } from '../../shared/report/report-html.ts';
import type { ReportData } from '../../shared/report/report-types.ts';
import { byTurnOf } from '../../shared/runs/summary/by-turn.ts';
import { RunDetailView } from '../runs/summary/RunSummaryView.tsx';
import { runDetail } from '../testing/run-fixture.ts';
import { toolSummary } from '../testing/tool-fixture.ts';
import { ReportApp } from './ReportApp.tsx';
import { comparisonView } from './ReportCompare.tsx';

afterEach(cleanup);

function agenticDetail() {
  const d = runDetail(12);
  const outcome = { ok: true, ttftMs: 40, e2eMs: 300, inputTokens: 30 } as never;
  return {
    ...d,
    summary: { ...d.summary, tools: toolSummary(), byTurn: byTurnOf([outcome, outcome], [1, 2]) },
  };
}

function build(details: ReturnType<typeof runDetail>[]): ReportData {
  const r = buildReportData({
    runs: details,
    compare: details.length > 1 ? details.map(loadedOfDetail) : null,
    tokenscopeVersion: 'test',
    generatedAtWall: Date.UTC(2026, 0, 2),
  });
  if (!r.ok) throw new Error(r.error.message);
  return JSON.parse(scriptSafeJson(r.value)) as ReportData;
}

describe('the report of a run with tool calls', () => {
  it('shows the app’s tool-call and agentic cards and the by-step table, word for word', () => {
    const d = agenticDetail();
    const regions = ['Tool calls', 'Agentic sessions', 'Latency by step'];
    const app = render(<RunDetailView detail={d} width={360} />);
    const appText = regions.map((name) => within(app.container).getByRole('region', { name }).textContent);
    cleanup();
    render(<ReportApp data={build([d])} />);
    const repText = regions.map((name) => screen.getByRole('region', { name }).textContent);
    expect(repText).toEqual(appText);
    expect(repText[0]).toMatch(/Failure rate66\.7 %/);
  });

  it('compares tool calls as rows: a run without tools has none', () => {
    const data = build([agenticDetail(), runDetail(12)]);
    const rows = comparisonView(data.comparison!).rows.filter(
      (r) => r.def.id.startsWith('tool-') || r.def.id.startsWith('agentic-'),
    );
    expect(rows.map((r) => r.def.id)).toContain('tool-fail-rate');
    const fail = rows.find((r) => r.def.id === 'tool-fail-rate')!;
    expect(fail.values[0]).toBeCloseTo(66.67, 2);
    expect(fail.values[1]).toBeNull();
    expect(rows.find((r) => r.def.id === 'agentic-capped')!.values).toEqual([1, null]);
  });
});
