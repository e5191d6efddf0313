// @vitest-environment happy-dom
/**
 * A report of two model-mix runs compares them by model as the app does: the same rows, changes,
 * intervals (worked out by the core, from each model's own requests) and verdicts, in the page's
 * "By model" table.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReportData, loadedOfDetail } from '../../shared/report/report-data.ts';
import type { ReportData } from '../../shared/report/report-types.ts';
import { compareByModel, modelIntervalsAsync } from '../../shared/runs/compare/by-model.ts';
import type { RunDetail } from '../../shared/runs-api.ts';
import { mixRunDetail } from '../testing/mix-fixture.ts';
import { comparisonView } from './ReportCompare.tsx';
import { ReportApp } from './ReportApp.tsx';

afterEach(cleanup);

function build(details: RunDetail[]): ReportData {
  const r = buildReportData({
    runs: details,
    compare: details.map(loadedOfDetail),
    replicates: 200,
    tokenscopeVersion: 'test',
    generatedAtWall: Date.UTC(2026, 0, 2),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('a report comparing model mixes', () => {
  it("has the app's rows by model, with intervals from each model's requests", async () => {
    const a = mixRunDetail({ key: 'a.jsonl', name: 'before', n: 48, models: ['base', 'lora'] });
    const b = mixRunDetail({
      key: 'b.jsonl',
      name: 'after',
      n: 48,
      models: ['base', 'lora'],
      slow: { lora: 2 },
    });
    const data = build([a, b]);
    const view = comparisonView(data.comparison!).byModel!;
    const app = compareByModel(
      [a.summary, b.summary],
      await modelIntervalsAsync(
        [a, b].map((d) => ({ summary: d.summary, outcomes: loadedOfDetail(d).outcomes })),
        { replicates: 200 },
      ),
    )!;
    const cells = (m: typeof app) =>
      m.models.flatMap((x) => x.rows.map((r) => [r.def.id, r.values, r.rel, r.ci, r.verdict]));
    expect(cells(view)).toEqual(cells(app));
    const lora = view.models[1]!.rows.find((r) => r.def.id === 'model:lora:ttft-p50')!;
    expect(lora.ci[1]).not.toBeNull();
    expect(lora.verdict[1]).toBe('worse');
    render(<ReportApp data={data} />);
    const groups = [...screen.getByTestId('compare-by-model-table').querySelectorAll('tr.compare-group')];
    expect(groups.map((g) => g.textContent)).toEqual(['Model base', 'Model lora']);
  });
});
