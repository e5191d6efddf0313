// @vitest-environment happy-dom
// The run summary's client self-check names the loop that stamped the reads (the stream-I/O
// thread's delay, stalls, GC, busy share) and the connections (opened, reused, retried) — in the
// app and in the CLI's text alike; a run stamped inline (or an older file) shows what it has.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import type { SelfCheck } from '../../../shared/runs/summary/self-check-schema.ts';
import { summaryText } from '../../../shared/runs/summary/text.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { SummaryNumbers } from './SummaryNumbers.tsx';

afterEach(cleanup);

const base = runDetail(3).summary;
const threaded: SelfCheck = {
  eventLoopDelayP99Ms: 12.5,
  eventLoopDelayMaxMs: 30,
  cpuMeanPct: 55,
  cpuMaxPct: 70,
  scheduleLagP99Ms: 1.2,
  flagged: true,
  reasons: ['I/O thread loop delay p99 7.3 ms > 5 ms'],
  thresholds: { eventLoopDelayP99Ms: 5, cpuMeanPct: 85 },
  io: {
    threads: 1,
    loopDelayP99Ms: 7.3,
    loopDelayMaxMs: 14.6,
    stalls: 9,
    stallMs: 97.4,
    gcCount: 6,
    gcPauseMs: 13.9,
    gcMaxMs: 5.12,
    cpuPct: 22.8,
    reads: 33027,
    holds: 4,
    heldMs: 31.5,
    heldMaxMs: 12.25,
  },
  connections: { mode: 'keep-alive', opened: 130, reused: 126, retried: 4 },
};
const withSelf = (sc: SelfCheck): RunSummary => ({ ...base, selfCheck: sc });

describe('client self-check in the run summary', () => {
  it('threaded: the I/O thread figures first, then the main thread, the connections and the verdict', () => {
    render(<SummaryNumbers s={withSelf(threaded)} />);
    const card = screen.getByTestId('sum-selfcheck');
    const rows = [...card.querySelectorAll('.sum-row')].map((r) =>
      r.textContent!.replace(/\s+/g, ' ').trim(),
    );
    expect(rows[0]).toBe('I/O thread loop delay p99 / max7.30 / 14.60 ms');
    expect(rows[1]).toBe('I/O stalls > 5 ms · GC pauses9 (97.40 ms) · 6, max 5.12 ms');
    expect(rows[2]).toBe('I/O thread busy22.80 %');
    expect(rows[3]).toBe('Streams held back4 (31.50 ms), max 12.25 ms');
    expect(rows[4]).toBe('Main thread loop delay p99 / max12.50 / 30.00 ms');
    expect(screen.getByTestId('sum-connections').textContent).toBe(
      'Connections (keep-alive)130 opened · 126 reused · 4 retried',
    );
    expect(card.textContent).toContain('I/O thread loop delay p99 7.3 ms > 5 ms');
    // What the client's late reads cost: the coalesced share, here beside the loop that read.
    expect(base.coalesced).not.toBeNull();
    const c = base.coalesced!;
    expect(rows).toContain(
      `Coalesced ITL gaps${Number(((c.gaps / c.totalGaps) * 100).toFixed(1))} % (${c.gaps} of ${c.totalGaps})`,
    );
  });

  it('inline or an older file: no I/O rows, the loop is "event-loop delay"', () => {
    const { io: _io, connections: _c, ...old } = threaded;
    render(<SummaryNumbers s={withSelf({ ...old, flagged: false, reasons: [] })} />);
    const card = screen.getByTestId('sum-selfcheck');
    expect(card.textContent).not.toContain('I/O thread');
    expect(card.textContent).toContain('Event-loop delay p99 / max');
    expect(screen.queryByTestId('sum-connections')).toBeNull();
  });

  it('the CLI text says the same', () => {
    const t = summaryText(withSelf(threaded));
    expect(t).toMatch(/^I\/O thread loop delay p99 \/ max \(ms\): +7\.30 \/ 14\.60$/m);
    expect(t).toMatch(/^I\/O thread stalls > 5 ms: +9 \(97\.40 ms\)$/m);
    expect(t).toMatch(/^I\/O thread GC pauses \(ms\): +6, 13\.90 in all, max 5\.12$/m);
    expect(t).toMatch(/^Streams held back \(ms\): +4, 31\.50 in all, max 12\.25$/m);
    expect(t).toMatch(/^Main thread loop delay p99 \/ max \(ms\): +12\.50 \/ 30\.00$/m);
    expect(t).toMatch(
      /^Connections \(keep-alive\): +130 opened, 126 reused, 4 retried \(first sent on a reused connection the server had closed, then on a new one, counted as opened\)$/m,
    );
    expect(t).toMatch(/^Coalesced ITL gaps \(client read late\): +\d+\.\d\d % \(\d+ of \d+\)$/m);
    expect(t).toMatch(/^Timing trustworthy: +NO — I\/O thread loop delay p99 7\.3 ms > 5 ms$/m);
  });
});

describe('events a loop stall touched, in the run summary', () => {
  const stallTouches = {
    boundMs: 5,
    stalls: 3,
    events: 41,
    requests: 12,
    ttft: 2,
    gaps: 60,
    ids: ['r00003', 'r00007'],
  };
  const sc: SelfCheck = {
    ...threaded,
    reasons: ['41 events in 12 requests stamped in or just after a loop stall > 5 ms (2 TTFT, 60 ITL gaps)'],
    stallTouches,
  };
  it('the run view counts them and names the requests (more than named: an ellipsis)', () => {
    render(<SummaryNumbers s={withSelf(sc)} />);
    const row = screen.getByTestId('sum-stall-touches');
    expect(row.textContent!.replace(/\s+/g, ' ')).toBe(
      'Events stamped in a stall > 5 ms41 in 12 requests (2 TTFT, 60 ITL gaps)r00003, r00007, …',
    );
    expect(screen.getByTestId('sum-selfcheck').textContent).toContain(
      'stamped in or just after a loop stall',
    );
  });

  it('none: says so, with the stalls counted', () => {
    const none = { ...stallTouches, events: 0, requests: 0, ttft: 0, gaps: 0, ids: [] };
    render(<SummaryNumbers s={withSelf({ ...threaded, stallTouches: none })} />);
    expect(screen.getByTestId('sum-stall-touches').textContent!.replace(/\s+/g, ' ')).toBe(
      'Events stamped in a stall > 5 msnone (3 stalls)',
    );
    expect(screen.queryByTestId('sum-stall-ids')).toBeNull();
  });

  it('the CLI text says the same', () => {
    const t = summaryText(withSelf(sc));
    expect(t).toMatch(/^Events stamped in a stall > 5 ms: +41 in 12 requests \(2 TTFT, 60 ITL gaps\)$/m);
    expect(t).toMatch(/^ {2}requests: r00003, r00007, …$/m);
    expect(t).toMatch(/^Timing trustworthy: +NO — 41 events in 12 requests stamped in or just after/m);
  });
});

describe('a trace replay in the run summary', () => {
  const replay = {
    speedup: 10,
    requests: 14,
    lagP50Ms: 8.82,
    lagP99Ms: 20.07,
    lagMaxMs: 20.33,
    boundMs: 10,
    flagged: true,
  };
  it('shows the lag p50 / p99 / max and says when the replay fell behind its trace', () => {
    render(<SummaryNumbers s={{ ...withSelf(threaded), replay }} />);
    expect(screen.getByTestId('sum-replay').textContent!.replace(/\s+/g, ' ')).toBe(
      'Trace replay ×10: lag p50 / p99 / max8.82 / 20.07 / 20.33 ms',
    );
    expect(screen.getByTestId('sum-selfcheck').textContent).toContain(
      'Replay fell behind its trace: lag p99 20.07 ms > 10 ms',
    );
    expect(summaryText({ ...withSelf(threaded), replay })).toContain(
      'Schedule lag p50 / p99 / max (ms):       8.82 / 20.07 / 20.33',
    );
  });

  it('is absent for a run that replays no trace, and unflagged within its bound', () => {
    render(<SummaryNumbers s={withSelf(threaded)} />);
    expect(screen.queryByTestId('sum-replay')).toBeNull();
    cleanup();
    render(
      <SummaryNumbers s={{ ...withSelf(threaded), replay: { ...replay, lagP99Ms: 4, flagged: false } }} />,
    );
    expect(screen.getByTestId('sum-replay')).not.toBeNull();
    expect(screen.getByTestId('sum-selfcheck').textContent).not.toContain('fell behind');
  });
});
