// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { binValues } from '../../shared/charts/histogram-bins.ts';
import { binData, ItlHistogram } from './ItlHistogram.tsx';

afterEach(cleanup);

describe('ItlHistogram', () => {
  const chunk = [20, 21, 19, 22, 20, 20, 80];
  const token = [10, 10.5, 9.5, 11, 10, 10, 40];

  it('draws one bar per bin with labelled axes, and switches definition', () => {
    const { container } = render(
      <ItlHistogram itlChunkMs={chunk} itlTokenMs={token} width={600} height={220} />,
    );
    expect(screen.getByText('ITL per chunk (ms)')).toBeTruthy();
    expect(screen.getByText('chunks')).toBeTruthy();
    const bars = container.querySelectorAll('.recharts-bar-rectangle');
    // recharts draws no rectangle for an empty bin.
    expect(bars.length).toBe(binValues(chunk, { target: 30 }).filter((b) => b.count > 0).length);
    expect(bars.length).toBeGreaterThan(1);
    expect(screen.getByText(/n = 7 · p50 20\.00 ms/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'per token' }));
    expect(screen.getByText('ITL per token (ms)')).toBeTruthy();
    expect(screen.getByText('tokens')).toBeTruthy();
    expect(screen.getByText(/n = 7 · p50 10\.00 ms/)).toBeTruthy();
  });

  it('says why it is empty', () => {
    render(<ItlHistogram itlChunkMs={[]} itlTokenMs={[]} width={600} />);
    expect(screen.getByText(/takes two content events/)).toBeTruthy();
  });
});

describe('binData', () => {
  it('labels bins with their lower edge and the overflow bin with ≥', () => {
    const d = binData([
      { x0: 10, x1: 12, count: 3, overflow: false },
      { x0: 12, x1: Infinity, count: 1, overflow: true },
    ]);
    expect(d.map((x) => x.label)).toEqual(['10', '≥12']);
    expect(d[0]!.range).toBe('10 – 12 ms');
    expect(d[1]!.range).toBe('≥ 12 ms');
  });
});
