// @vitest-environment happy-dom
/** The run view's by-turn table: a row per turn of a multi-turn run, nothing for other runs. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { byTurnOf } from '../../../shared/runs/summary/by-turn.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { ByTurnTable } from './ByTurnTable.tsx';

afterEach(cleanup);

const s = runDetail(5).summary;
const out = (ttftMs: number, e2eMs: number, inputTokens: number): RequestOutcome => ({
  ok: true,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs,
  e2eMs,
  tpotMs: 0,
  itlChunkMs: [],
  itlTokenMs: [],
  outputTokens: 1,
  inputTokens,
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: null,
  errorCode: null,
});

describe('ByTurnTable', () => {
  it('shows nothing for a run without turns', () => {
    expect(s.byTurn).toBeUndefined();
    const { container } = render(<ByTurnTable s={s} />);
    expect(container.textContent).toBe('');
  });

  it('shows turn 1 and later turns with their TTFT and E2E; the last row pools later turns', () => {
    const outcomes = [out(200, 900, 610), out(40, 700, 700), out(30, 650, 950)];
    render(<ByTurnTable s={{ ...s, byTurn: byTurnOf(outcomes, [1, 2, 9]) }} />);
    const cells = (label: string): string[] =>
      [...screen.getByTestId(`sum-turn-${label}`).querySelectorAll('th, td')].map((c) => c.textContent!);
    expect(cells('1')).toEqual([
      '1',
      '1',
      '0',
      '610',
      '200.00',
      '200.00',
      '200.00',
      '900.00',
      '900.00',
      '900.00',
    ]);
    expect(cells('2').slice(4, 6)).toEqual(['40.00', '40.00']);
    expect(cells('8+')[0]).toBe('8+');
  });
});
