// @vitest-environment happy-dom
/**
 * The run view's per-model chart filter: a model-mix run (hand-made lines, the core's summary) shows
 * "All models" by default; picking one draws the histograms and the series over time from that
 * model's requests alone, on the same time axis; a run without a mix (an older file: lines
 * without `model`) has no filter.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mixRunDetail } from '../../testing/mix-fixture.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { derivedForModel } from './model-filter.ts';
import { deriveRun } from './run-detail.ts';
import { RunDetailView } from './RunSummaryView.tsx';

afterEach(cleanup);

// The adapter's times are 3× the base model's: its TTFTs lie above every base TTFT.
const d = mixRunDetail({ key: 'mix.jsonl', name: 'mix', n: 40, models: ['base', 'lora'], slow: { lora: 3 } });

describe('derivedForModel', () => {
  it("draws one model's requests alone, on the whole run's time axis", () => {
    const all = deriveRun(d);
    const lora = derivedForModel(d, all, 'lora');
    expect(all.outcomes).toHaveLength(40);
    expect(lora.outcomes).toHaveLength(20);
    expect(lora.outcomes.every((o) => o.model === 'lora')).toBe(true);
    expect(lora.lanes!.n).toBe(20);
    expect(lora.xMax).toBe(all.xMax);
    const base = derivedForModel(d, all, 'base');
    // Histogram counts: each model's share of the run's.
    const count = (x: typeof all) => x.hist.ttft.reduce((a, b) => a + b.count, 0);
    expect(count(lora) + count(base)).toBe(count(all));
    const minTtft = (x: typeof all) =>
      Math.min(...x.outcomes.flatMap((o) => (o.ttftMs === null ? [] : [o.ttftMs])));
    const maxTtft = (x: typeof all) =>
      Math.max(...x.outcomes.flatMap((o) => (o.ttftMs === null ? [] : [o.ttftMs])));
    expect(minTtft(lora)).toBeGreaterThan(maxTtft(base));
    // The models' output tokens per second add up to the run's, second by second.
    const tok = (x: typeof all) => x.throughput.map((p) => p.tokS as number);
    tok(all).forEach((v, i) => expect((tok(lora)[i] ?? 0) + (tok(base)[i] ?? 0)).toBeCloseTo(v, 9));
    expect(derivedForModel(d, all, null)).toBe(all);
  });
});

describe('ModelFilter in the run view', () => {
  it('shows all models by default, then one model at a time', () => {
    render(<RunDetailView detail={d} width={360} />);
    const filter = screen.getByTestId('run-model-filter');
    const select = screen.getByTestId<HTMLSelectElement>('run-model-filter-select');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'All models',
      'base (50 %)',
      'lora (50 %)',
    ]);
    expect(filter.dataset.model).toBe('all');
    expect(filter.dataset.requests).toBe('40');
    const hist = () => screen.getByTestId('sum-hist-ttft').innerHTML;
    const series = () => screen.getByTestId('sum-tok-chart').innerHTML;
    const allHist = hist();
    const allSeries = series();
    fireEvent.change(select, { target: { value: 'lora' } });
    expect(filter.dataset.model).toBe('lora');
    expect(filter.dataset.requests).toBe('20');
    expect(screen.getByTestId('run-model-filter-note').textContent).toContain("lora's 20 of 40 requests");
    expect(hist()).not.toBe(allHist);
    expect(series()).not.toBe(allSeries);
    // The tables above stay the whole run's.
    expect(screen.getByTestId('sum-by-model').querySelectorAll('tbody tr')).toHaveLength(2);
    fireEvent.change(select, { target: { value: '' } });
    expect(filter.dataset.model).toBe('all');
    expect(hist()).toBe(allHist);
  });

  it('is absent for a run without a model mix', () => {
    render(<RunDetailView detail={runDetail(5)} width={360} />);
    expect(screen.queryByTestId('run-model-filter')).toBeNull();
    expect(screen.getByTestId('sum-hist-ttft')).toBeTruthy();
  });
});
