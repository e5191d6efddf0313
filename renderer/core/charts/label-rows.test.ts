import { describe, expect, it } from 'vitest';
import { labelRows, labelWidth } from './label-rows.ts';

describe('labelRows', () => {
  it('keeps labels that fit in one row, and moves a touching one down a row', () => {
    const plot = { left: 60, right: 420 };
    const [band, run] = labelRows(
      [
        { id: 'band', text: 'SLO answer 40–50', x: 300, align: 'middle' },
        { id: 'run', text: 'step 5 running (40 %)', x: 310, align: 'start' },
      ],
      plot,
    );
    expect(band!.row).toBe(0);
    expect(run!.row).toBe(1);
    const far = labelRows(
      [
        { id: 'band', text: 'SLO answer 40–50', x: 120, align: 'middle' },
        { id: 'run', text: 'step 5 running', x: 330, align: 'start' },
      ],
      plot,
    );
    expect(far.map((p) => p.row)).toEqual([0, 0]);
  });

  it('keeps every label inside the plot', () => {
    const [p] = labelRows([{ id: 'a', text: 'step 9 running (99 %)', x: 415, align: 'start' }], {
      left: 60,
      right: 420,
    });
    expect(p!.left + p!.width).toBeLessThanOrEqual(420);
    expect(p!.left).toBe(420 - labelWidth('step 9 running (99 %)'));
  });
});
