// @vitest-environment happy-dom
/** The debugger's tokens-per-chunk chart: steps from exact counts, a note where counts are estimated. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EventColumns } from '../../shared/event-columns.ts';
import { EV_CONTENT, EV_TOKENS_EXACT, EV_USAGE } from '../../shared/request.ts';
import { ChunkTokensChart } from './ChunkTokensChart.tsx';

afterEach(cleanup);

function cols(counts: number[], flags: number): EventColumns {
  const c = new EventColumns(8);
  counts.forEach((n, i) => c.push(10 * (i + 1), n, 0, flags, '', 1));
  c.push(10 * (counts.length + 1), 0, 0, EV_USAGE, '', 1);
  return c;
}

describe('ChunkTokensChart', () => {
  it('draws a step per chunk and the mean of the whole steps (first and last chunk left out)', () => {
    const c = cols([1, 3, 2, 4, 1], EV_CONTENT | EV_TOKENS_EXACT);
    render(<ChunkTokensChart source={c} events={c.n} />);
    expect(screen.getByTestId('chunk-tokens-mean').textContent).toBe(
      '5 chunks · 3.00 tokens per step (middle chunks)',
    );
    expect(screen.getByTestId('chunk-tokens-path').getAttribute('d')!.match(/V/g)).toHaveLength(4);
    expect(screen.getByTestId('chunk-tokens').textContent).toContain('ms since the request started');
    expect(screen.queryByTestId('chunk-tokens-estimated')).toBeNull();
  });

  it('estimated counts are said (they read as one token a chunk)', () => {
    const c = cols([1, 1, 1], EV_CONTENT);
    render(<ChunkTokensChart source={c} events={c.n} />);
    expect(screen.getByTestId('chunk-tokens-estimated').textContent).toContain('continuous_usage_stats');
  });

  it('nothing streamed yet: no chart', () => {
    render(<ChunkTokensChart source={null} events={0} />);
    expect(screen.queryByTestId('chunk-tokens')).toBeNull();
  });
});
