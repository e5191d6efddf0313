// @vitest-environment happy-dom
/**
 * Log x where the values span decades: a stream's 4,598 gaps, 4,000 of them between 2 and 20 ms
 * and a tail up to 1.4 s. On a linear axis the bulk is one bar; the ITL histogram, a run's
 * histogram and the comparison's CDFs pick a log x axis for it by themselves, say so ("auto"),
 * and switch back on a click.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { histogramData, cdfFromValues } from '../../../shared/runs/summary/distributions.ts';
import { ItlHistogram } from '../../request/ItlHistogram.tsx';
import { HistChart } from './HistChart.tsx';
import { CdfCompareChart } from './CdfCompareChart.tsx';

afterEach(cleanup);

const gaps: number[] = [];
for (let i = 0; i < 4000; i++) gaps.push(2 + (18 * i) / 4000);
for (let i = 0; i < 598; i++) gaps.push(20 + (1380 * i) / 597);
const narrow = Array.from({ length: 400 }, (_, i) => 10 + i / 40);

/** The bars' heights (px): the tallest and how many are drawn. */
function bars(el: HTMLElement): number[] {
  return [...el.querySelectorAll('.recharts-bar-rectangle path')].map((p) =>
    Number(p.getAttribute('height')),
  );
}

describe('log x', () => {
  it('the ITL histogram picks log x over two decades, labelled, and switches to linear', () => {
    render(<ItlHistogram itlChunkMs={gaps} itlTokenMs={gaps} width={600} height={220} />);
    const h = screen.getByTestId('itl-histogram');
    expect(h.dataset.scale).toBe('log');
    const toggle = screen.getByTestId('itl-histogram-scale');
    expect(within(toggle).getByRole('radio', { checked: true }).textContent).toBe('log x (auto)');
    expect(screen.getByText('ITL per chunk (ms, log scale)')).toBeTruthy();
    // Decade labels on the axis.
    for (const t of ['10', '100', '1,000']) expect(within(h).getAllByText(t).length).toBeGreaterThan(0);
    const share = (b: number[]) => Math.max(...b) / b.reduce((x, y) => x + y, 0);
    const logShare = share(bars(h));
    expect(logShare).toBeLessThan(0.35);
    fireEvent.click(within(toggle).getByRole('radio', { name: 'linear x' }));
    expect(h.dataset.scale).toBe('linear');
    expect(screen.getByText('ITL per chunk (ms)')).toBeTruthy();
    // Linear: the bulk in one bar (4,000 of 4,598 gaps in its first 50 ms); log: spread over many.
    expect(share(bars(h))).toBeGreaterThan(0.8);
  });

  it('stays linear for a narrow range', () => {
    render(<ItlHistogram itlChunkMs={narrow} itlTokenMs={narrow} width={600} />);
    expect(screen.getByTestId('itl-histogram').dataset.scale).toBe('linear');
    expect(
      within(screen.getByTestId('itl-histogram-scale')).getByRole('radio', { checked: true }).textContent,
    ).toBe('linear x (auto)');
  });

  it("a run's histogram does the same from its log bins", () => {
    render(
      <HistChart
        data={histogramData(gaps)}
        logData={histogramData(gaps, 30, 'log')}
        color="#5b9dff"
        countLabel="chunks"
        testId="h"
        width={500}
        height={160}
      />,
    );
    const h = screen.getByTestId('h');
    expect(h.dataset.scale).toBe('log');
    expect(h.textContent).toContain('ms, log scale');
    fireEvent.click(within(screen.getByTestId('h-scale')).getByRole('radio', { name: 'linear x' }));
    expect(h.dataset.scale).toBe('linear');
  });

  it("the comparison's CDFs go log x when a run's tail spans decades", () => {
    const { rerender } = render(
      <CdfCompareChart
        series={[
          { name: 'A', color: '#22d3ee', points: cdfFromValues(gaps) },
          { name: 'B', color: '#ffb020', points: cdfFromValues(narrow) },
        ]}
        testId="c"
        width={500}
        height={190}
      />,
    );
    const c = screen.getByTestId('c');
    expect(c.dataset.scale).toBe('log');
    expect(c.textContent).toContain('ms, log scale');
    rerender(
      <CdfCompareChart
        series={[{ name: 'B', color: '#ffb020', points: cdfFromValues(narrow) }]}
        testId="c"
        width={500}
        height={190}
      />,
    );
    expect(screen.getByTestId('c').dataset.scale).toBe('linear');
  });
});
