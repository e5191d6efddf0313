// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { coalescedShareText } from '../../core/coalesced-text.ts';
import { sharePct } from '../../../shared/stats/request-itl.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { StatsTable, SummaryNumbers } from './SummaryNumbers.tsx';

afterEach(cleanup);

const row = (metric: string): HTMLElement | null =>
  screen.getByTestId('sum-stats').querySelector(`tr[data-metric="${metric}"]`);
const cells = (metric: string): string[] =>
  [...row(metric)!.querySelectorAll('td')].map((c) => c.textContent!);

describe('StatsTable: coalesced gaps', () => {
  // The fixture run: 4 successful requests of the hand-made record, whose last two content events
  // came in one socket read: gaps 20, 20, 0 each — 4 of 12 coalesced.
  const s = runDetail(5).summary;

  it("shows the share near ITL, our ITL without them and vLLM's with them", () => {
    expect(s.coalesced).toEqual({ gaps: 4, totalGaps: 12, share: 4 / 12 });
    render(<StatsTable s={s} />);
    const note = screen.getByTestId('sum-coalesced');
    expect(note.textContent).toBe(
      "Coalesced gaps 33.3 % (4 of 12) — left out of Tokenscope's ITL; vLLM's ITL keeps them",
    );
    expect(note.getAttribute('title')).toMatch(/one socket read/);
    // Ours: the 8 gaps of 20 ms. vLLM's: all 12, the four 0-ms ones included (mean 13.33).
    expect(cells('itl').slice(0, 3)).toEqual(['8', '20.00', '20.00']);
    expect(cells('itl-vllm').slice(0, 2)).toEqual(['12', '13.33']);
    expect(row('itl-vllm')!.querySelector('th')!.textContent).toBe('ITL per chunk (vLLM)');
    // The vLLM row sits right below ours.
    expect(row('itl')!.nextElementSibling).toBe(row('itl-vllm'));
    expect(s.vllm.mean_itl_ms).toBeCloseTo(40 / 3, 9);
  });

  it('says 0 % when nothing was coalesced, with no vLLM row (the two are the same)', () => {
    const none: RunSummary = {
      ...s,
      coalesced: { gaps: 0, totalGaps: 12, share: 0 },
      stats: { ...s.stats, itl: s.stats.itl!.vllm! },
    };
    render(<StatsTable s={none} />);
    expect(screen.getByTestId('sum-coalesced').textContent).toMatch(/^Coalesced gaps 0 % \(0 of 12\)/);
    expect(row('itl-vllm')).toBeNull();
  });

  it('says nothing for imports and older files (not known)', () => {
    render(<StatsTable s={{ ...s, coalesced: null }} />);
    expect(screen.queryByTestId('sum-coalesced')).toBeNull();
    const { coalesced: _gone, ...old } = s;
    cleanup();
    render(<StatsTable s={old as RunSummary} />);
    expect(screen.queryByTestId('sum-coalesced')).toBeNull();
  });

  it('an ITL of ours left empty (every gap coalesced) shows its count, not zeros', () => {
    const empty: RunSummary = {
      ...s,
      stats: {
        ...s.stats,
        itl: { ...s.stats.itl!, count: 0, mean: 0, median: 0, std: 0, min: null, max: null, p99: null },
      },
    };
    render(<StatsTable s={empty} />);
    expect(cells('itl').slice(0, 3)).toEqual(['0', '—', '—']);
  });
});

describe('coalesced share text', () => {
  it('keeps small shares visible and groups thousands', () => {
    expect(coalescedShareText(232, 25_600)).toBe('0.9 % (232 of 25,600)');
    expect(sharePct(1, 2_500)).toBe('0.04 %');
    expect(sharePct(0, 10)).toBe('0 %');
    expect(sharePct(10, 10)).toBe('100 %');
    expect(sharePct(9_999, 10_000)).toBe('99.9 %');
    expect(sharePct(1, 8)).toBe('12.5 %');
  });
});

describe('a run where every request failed', () => {
  // runDetail(1): its one measured request is the fixture's HTTP 400.
  const s = runDetail(1).summary;

  it('shows no latency and no peak ("—", not vLLM\'s 0.00), and one sample message per error kind', () => {
    expect(s.vllm.completed).toBe(0);
    render(
      <>
        <SummaryNumbers s={s} />
        <StatsTable s={s} />
      </>,
    );
    expect(screen.getByTestId('sum-peak-concurrency').textContent).toBe('—');
    expect(screen.getByTestId('sum-stats-none').textContent).toMatch(/No request succeeded/);
    expect(screen.queryByTestId('sum-stats')).toBeNull();
    const sample = screen.getByTestId('sum-error-sample');
    expect(sample.textContent).toBe(s.errorSamples![Object.keys(s.errors)[0]!]);
    expect(sample.textContent!.length).toBeGreaterThan(0);
  });
});

describe('SummaryNumbers: the peak output throughput', () => {
  const s = runDetail(5).summary;

  it('says "estimated counts" next to a peak spread over events without per-event counts', () => {
    render(<SummaryNumbers s={{ ...s, tokens: { ...s.tokens, peakEstimated: true } }} />);
    const peak = screen.getByTestId('sum-peak-tput');
    expect(peak.textContent).toMatch(/^[\d,.]+ tok\/s \(estimated counts\)$/);
    expect(peak.closest('.sum-row')!.getAttribute('title')).toMatch(/no per-event token counts/);
  });

  it('says nothing more when the counts were the server’s', () => {
    const { peakEstimated: _none, ...tokens } = s.tokens;
    render(<SummaryNumbers s={{ ...s, tokens }} />);
    expect(screen.getByTestId('sum-peak-tput').textContent).toMatch(/^[\d,.]+ tok\/s$/);
  });
});
