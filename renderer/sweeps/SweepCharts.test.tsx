// @vitest-environment happy-dom
/**
 * The Sweep charts: the data each chart gets (series per sweep and percentile, the knee, the
 * over-saturated step, the SLO's limit and answer) and that a fixed-size render draws them — the
 * knee ring with its label, a legend entry per series, two sweeps overlaid in two colours.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepFixture } from '../testing/sweep-fixture.ts';
import { colorOf, goodputChart, latencyChart, perUserChart } from './sweep-chart-data.ts';
import { SweepCharts } from './SweepCharts.tsx';

afterEach(cleanup);

const slo = {
  terms: 'p99_ttft_ms<=100',
  search: 'rate' as const,
  passing: { load: 40, decidedBy: 'interval' as const, runs: 1 },
  failing: { load: 50, decidedBy: 'interval' as const, runs: 1 },
  reason: 'converged' as const,
};
const a = { id: 'a', label: 'server A', file: sweepFixture({ cap: 40, slo }) };
const b = {
  id: 'b',
  label: 'server B',
  file: sweepFixture({ cap: 50, rates: [10, 20, 30, 40, 50, 60, 70] }),
};

describe('sweep chart data', () => {
  it('latency: p50 and p99 against output tok/s, the knee at the last step before the wall', () => {
    const d = latencyChart([a], 'ttft');
    expect(d.series.map((s) => [s.name, s.dashed])).toEqual([
      ['TTFT p50', true],
      ['TTFT p99', false],
    ]);
    const p99 = d.series[1]!.points;
    expect(p99.map((p) => p.x)).toEqual([1000, 2000, 3000, 4000, 4000, 4000]);
    expect(p99.map((p) => p.y)).toEqual([30, 40, 50, 60, 360, 660]);
    // The knee is recorded in the file (Kneedle over the steps) and drawn where that step is.
    const kneeStep = a.file.knee.ttft!.stepIndex;
    expect(d.knees).toEqual([{ x: p99[kneeStep]!.x, y: p99[kneeStep]!.y, label: 'knee', color: colorOf(0) }]);
    expect(d.over).toContainEqual({ x: 4000, y: 660 });
    expect(d.limit).toEqual({ y: 100, label: 'SLO p99_ttft <= 100 ms' });
    expect(latencyChart([a], 'itl').knees).toEqual([]);
    expect(latencyChart([a], 'itl').limit).toBeNull();
  });

  it('goodput against the offered load with the SLO answer as a band; per user against total', () => {
    const g = goodputChart([a]);
    expect(g.xLabel).toBe('offered load (req/s)');
    expect(g.series.map((s) => s.name)).toEqual(['requests/s', 'goodput req/s']);
    expect(g.series[1]!.points.map((p) => p.y)).toEqual([10, 20, 30, 40, 10, 10]);
    expect(g.band).toEqual({ x1: 40, x2: 50, label: 'SLO answer 40–50' });
    const u = perUserChart([a, b]);
    expect(u.series.map((s) => [s.name, s.color])).toEqual([
      ['server A', colorOf(0)],
      ['server B', colorOf(1)],
    ]);
    expect(colorOf(0)).not.toBe(colorOf(1));
  });
});

describe('SweepCharts', () => {
  it('draws the three charts with legends, units and the labelled knee', () => {
    const { container } = render(<SweepCharts sources={[a]} width={900} />);
    const lat = screen.getByTestId('sweep-chart-latency');
    expect(lat.querySelectorAll('.recharts-scatter').length).toBe(3); // p50, p99, over-saturated
    expect(lat.querySelectorAll('.sweep-knee').length).toBe(1);
    expect(lat.textContent).toContain('knee');
    expect(lat.textContent).toContain('TTFT (ms)');
    expect(lat.textContent).toContain('output tok/s');
    expect(lat.textContent).toContain('TTFT p99');
    expect(lat.textContent).toContain('over-saturated (stopped)');
    expect(lat.textContent).toContain('SLO p99_ttft <= 100 ms');
    const good = screen.getByTestId('sweep-chart-goodput');
    expect(good.textContent).toContain('offered load (req/s)');
    expect(good.textContent).toContain('SLO answer 40–50');
    expect(container.querySelectorAll('.recharts-legend-wrapper').length).toBe(3);
    // The legend draws each series' own stroke: p50 dashed, p99 solid.
    const items = [...lat.querySelectorAll('[data-testid="sweep-line-legend"] li')];
    const stroke = (name: string) =>
      items
        .find((li) => li.textContent?.endsWith(name))
        ?.querySelector('line')
        ?.getAttribute('stroke-dasharray');
    expect(stroke('TTFT p50')).toBe('5 4');
    expect(stroke('TTFT p99')).toBeNull();
    // ITL has no knee: the ring goes.
    fireEvent.click(screen.getByTestId('sweep-metric-itl'));
    expect(screen.getByTestId('sweep-chart-latency').querySelectorAll('.sweep-knee').length).toBe(0);
  });

  it("lays the SLO answer's and the running step's labels in rows so they never overlap", () => {
    // Step 5 at 45 req/s runs inside the SLO answer's band (40–50): both labels at the same place.
    render(
      <SweepCharts
        sources={[a]}
        width={900}
        running={{ index: 4, load: { kind: 'rate', value: 45 }, fraction: 0.4 }}
      />,
    );
    const band = screen.getByTestId('sweep-label-band');
    const run = screen.getByTestId('sweep-label-running');
    expect(band.textContent).toBe('SLO answer 40–50');
    expect(run.textContent).toBe('step 5 running (40 %)');
    const box = (e: HTMLElement) => {
      const left = parseFloat(e.style.left);
      const top = parseFloat(e.style.top);
      return { left, right: left + parseFloat(e.style.width), top, bottom: top + 13 };
    };
    const p = box(band);
    const q = box(run);
    const overlap = p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
    expect(overlap).toBe(false);
    expect([band.dataset.row, run.dataset.row]).toEqual(['0', '1']);
  });

  it('overlays two sweeps, each its own colour and legend entries', () => {
    render(<SweepCharts sources={[a, b]} width={900} />);
    const lat = screen.getByTestId('sweep-chart-latency');
    expect(lat.textContent).toContain('server A · TTFT p99');
    expect(lat.textContent).toContain('server B · TTFT p99');
    expect(lat.querySelectorAll('.sweep-knee').length).toBe(2);
    const fills = new Set(
      [...lat.querySelectorAll('.recharts-scatter-symbol path, .recharts-scatter-symbol circle')].map((e) =>
        e.getAttribute('fill'),
      ),
    );
    expect(fills.has(colorOf(0))).toBe(true);
    expect(fills.has(colorOf(1))).toBe(true);
  });
});
