// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EV_COALESCED } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { digestOf } from './record-view.ts';
import { handMadeRecord } from '../testing/record-fixture.ts';
import { DEFS, StatsPanel } from './StatsPanel.tsx';

afterEach(cleanup);

describe('StatsPanel', () => {
  it('shows the numbers computeRequestStats gives, TTFT to 2 decimals', () => {
    const rec = handMadeRecord();
    const stats = computeRequestStats(rec);
    render(<StatsPanel stats={stats} digest={digestOf(rec)} />);
    // The role-only chunk at 5 ms is the first event, not the first token.
    expect(stats.ttftMs).toBe(12.3456);
    expect(screen.getByTestId('stats-ttft').textContent).toBe('12.35 ms');
    expect(screen.getByTestId('stats-first-event').textContent).toBe('5.00 ms');
    expect(screen.getByTestId('stats-e2e').textContent).toBe('61.50 ms');
    // TPOT = (61.5 − 12.3456) / (4 − 1)
    expect(screen.getByTestId('stats-tpot').textContent).toBe(`${((61.5 - 12.3456) / 3).toFixed(2)} ms`);
    expect(screen.getByTestId('stats-output-tokens').textContent).toBe('4');
    expect(screen.getByTestId('stats-chunks').textContent).toBe('4');
    expect(screen.getByTestId('stats-coalesced').textContent).toBe('2');
    expect(screen.getByTestId('stats-token-source').textContent).toBe(
      'exact total (final usage); per-event estimated',
    );
    expect(screen.getByTestId('stats-status').textContent).toBe('200');
    expect(screen.getByTestId('stats-finish').textContent).toBe('length');
    expect(screen.getByText(/prompt 9 · completion 4 · total 13/)).toBeTruthy();
  });

  it('names the model the response answered as, and warns when it is another than asked', () => {
    const asked = { ...handMadeRecord(), model: 'Qwen/Qwen3-8B' };
    const same = { ...asked, responseModel: 'Qwen/Qwen3-8B' };
    render(<StatsPanel stats={computeRequestStats(same)} digest={digestOf(same)} />);
    expect(screen.getByTestId('stats-model').textContent).toBe('Qwen/Qwen3-8B');
    expect(screen.getByTestId('stats-model').parentElement!.className).toBe('stat');
    cleanup();
    // llama.cpp serves what it has loaded whatever the name: the mismatch is said, in warning colour.
    const other = { ...asked, responseModel: 'llama-3.2-1b-instruct-q4.gguf' };
    render(<StatsPanel stats={computeRequestStats(other)} digest={digestOf(other)} />);
    const cell = screen.getByTestId('stats-model');
    expect(cell.textContent).toBe('⚠ llama-3.2-1b-instruct-q4.gguf (asked Qwen/Qwen3-8B)');
    expect(cell.parentElement!.className).toBe('stat warn');
    expect(cell.parentElement!.title).toMatch(/answered as "llama-3.2-1b-instruct-q4.gguf".*check the model/);
  });

  it('summarises ITL per chunk and per token, the coalesced gap left out and counted', () => {
    const rec = handMadeRecord();
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    // Gaps between content events: 20, 20, 0 — the 0 is " wor" → "ld", one socket read: left out.
    const chunk = screen.getByTitle(DEFS.itlChunk);
    expect(chunk.textContent).toContain('n=2');
    expect(chunk.textContent).not.toContain('13.33 ms'); // the mean with the 0-ms gap
    expect(chunk.textContent).toContain('20.00 ms');
    // Per token (1 estimated token per later event): 20, then the read's 20 ms over its 2 tokens —
    // from estimated counts (the server sent only a final usage), and labelled so.
    const token = screen.getByTitle(
      /^ITL per token: .* Estimated here: the server sent no per-event token counts/,
    );
    expect(token.textContent).toContain('ITL per token (est.)');
    expect(token.textContent).toContain('n=3');
    expect(token.textContent).toContain('13.33 ms');
    expect(token.textContent).toContain('10.00 ms');
    const share = screen.getByTestId('stats-coalesced-gaps');
    expect(share.textContent).toBe("Coalesced gaps 33.3 % (1 of 3) — left out of ITL; vLLM's ITL keeps them");
    expect(share.getAttribute('title')).toMatch(/one socket read/);
  });

  it('says nothing of coalesced gaps when there were none', () => {
    const rec = handMadeRecord();
    rec.events.flags = rec.events.flags.map((f) => f & ~EV_COALESCED);
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    expect(screen.getByTitle(DEFS.itlChunk).textContent).toContain('n=3');
    expect(screen.queryByTestId('stats-coalesced-gaps')).toBeNull();
  });

  it('puts a definition citing request-stats.ts on every core number', () => {
    const rec = handMadeRecord();
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    const ttftRow = screen.getByTestId('stats-ttft').closest('[title]')!;
    expect(ttftRow.getAttribute('title')).toMatch(/first event carrying at least one generated token/);
    expect(ttftRow.getAttribute('title')).toMatch(/request-stats\.ts/);
    expect(screen.getByTestId('stats-tpot').closest('[title]')!.getAttribute('title')).toMatch(
      /\(E2E − TTFT\) \/ \(output tokens − 1\)/,
    );
  });

  it('says "estimated" when the server gave no counts', () => {
    const rec = handMadeRecord({ usage: null, tokenSource: 'estimated' });
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    expect(screen.getByTestId('stats-token-source').textContent).toBe('estimated (1 per content event)');
  });

  it('renders dashes before any request', () => {
    render(<StatsPanel stats={null} digest={null} />);
    expect(screen.getByTestId('stats-ttft').textContent).toBe('—');
    expect(screen.getByTestId('stats-output-tokens').textContent).toBe('—');
  });
});
