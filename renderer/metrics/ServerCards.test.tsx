// @vitest-environment happy-dom
/**
 * The Requests card keeps both server lines visible when they are equal (llama.cpp at its slot
 * limit: as many requests waiting as running): waiting is a wide translucent band drawn first,
 * running a thin line on top of it, and the legend draws each as it is drawn.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cardContext } from './card-context.ts';
import type { PanelData } from './panel-data.ts';
import { RequestsCard } from './RequestsCard.tsx';
import { WIDE_STROKE } from './TimeChart.tsx';

afterEach(cleanup);

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

describe('RequestsCard', () => {
  it('draws waiting beneath running, wide, so equal values do not hide one of them', () => {
    const steps = [0, 1, 2, 3, 4, 5].map((i) => ({ t: T0 + i * 1000, v: 4 }));
    const data = {
      running: steps,
      waiting: steps,
      exposed: { running: true, waiting: true },
      resolutionMs: 1000,
    } as unknown as PanelData;
    const ctx = cardContext({
      data,
      domain: [T0, T0 + 5000],
      width: 480,
      profileName: 'llama.cpp',
      scrapes: 6,
      failing: false,
    });
    const { container } = render(
      <RequestsCard
        data={data}
        ctx={ctx}
        inFlight={[
          { t: T0, v: 2 },
          { t: T0 + 5000, v: 2 },
        ]}
      />,
    );
    const paths = [...container.querySelectorAll('.recharts-line path.recharts-curve')];
    expect(paths.length).toBe(3);
    // Drawn in this order: the wide band first, the thin lines over it.
    const widths = paths.map((p) => Number(p.getAttribute('stroke-width')));
    expect(widths[0]).toBe(WIDE_STROKE);
    expect(widths.slice(1)).toEqual([1.6, 1.6]);
    expect(paths[0]!.getAttribute('stroke-opacity')).toBe('0.45');
    // Same values, same path: the running line lies inside the band, both visible.
    expect(paths[1]!.getAttribute('d')).toBe(paths[0]!.getAttribute('d'));
    const legend = screen.getByTestId('metrics-running-chart-card').querySelectorAll('.mchart-legend li');
    expect(legend[1]!.textContent).toBe('waiting4');
    expect(legend[1]!.querySelector('.sw')!.className).toBe('sw mline wide');
  });
});
