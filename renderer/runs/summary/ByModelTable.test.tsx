// @vitest-environment happy-dom
/** The run view's by-model table: a row per model of a model-mix run, nothing for other runs. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { byModelOf } from '../../../shared/runs/summary/by-model.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { ByModelTable } from './ByModelTable.tsx';

afterEach(cleanup);

const s = runDetail(5).summary;
const out = (ttftMs: number, e2eMs: number, itl: number[], ok = true): RequestOutcome => ({
  ok,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs: ok ? ttftMs : null,
  e2eMs: ok ? e2eMs : null,
  tpotMs: 0,
  itlChunkMs: itl,
  itlTokenMs: itl,
  outputTokens: ok ? itl.length + 1 : 0,
  inputTokens: 10,
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: ok ? null : 'http',
  errorCode: ok ? null : '404',
});

describe('ByModelTable', () => {
  it('shows nothing for a run without a mix', () => {
    expect(s.byModel).toBeUndefined();
    const { container } = render(<ByModelTable s={s} />);
    expect(container.textContent).toBe('');
  });

  it("shows each model's own numbers and errors, in the mix's order", () => {
    const outcomes = [
      out(100, 500, [40, 40]),
      out(20, 100, [8, 8]),
      out(0, 0, [], false),
      out(300, 700, [40]),
    ];
    const byModel = byModelOf({
      outcomes,
      models: ['base', 'lora-a', 'lora-a', 'base'],
      durationS: 2,
      config: s.config,
      definitions: 'tokenscope',
      order: ['lora-a', 'base'],
    })!;
    render(<ByModelTable s={{ ...s, byModel }} />);
    const cells = (m: string): string[] =>
      [...screen.getByTestId(`sum-model-${m}`).querySelectorAll('th, td')].map((c) => c.textContent!);
    const rows = [...screen.getByTestId('sum-by-model').querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.querySelector('th')!.textContent)).toEqual(['lora-a', 'base']);
    // base: TTFT 100 and 300 (median 200), ITL 40, E2E 500 and 700; 2 requests over 2 s.
    expect(cells('base')).toEqual([
      'base',
      '2',
      '0',
      '200.00',
      '298.00',
      '40.00',
      '40.00',
      '600.00',
      '698.00',
      '1.00',
      '2.50',
      '—',
    ]);
    const a = cells('lora-a');
    expect(a.slice(0, 4)).toEqual(['lora-a', '2', '1', '20.00']);
    expect(a[11]).toBe('http/404 ×1');
  });
});
