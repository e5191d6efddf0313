// @vitest-environment happy-dom
/**
 * The run view's tool-call and agentic cards: counts, checks and times from the summary's `tools`
 * (summed by the core's ToolTally from request lines), the session time split, the by-step table;
 * nothing for a run without tools.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { byTurnOf } from '../../../shared/runs/summary/by-turn.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { toolSummary } from '../../testing/tool-fixture.ts';
import { ByTurnTable } from './ByTurnTable.tsx';
import { sessionSplit } from './AgenticCard.tsx';
import { ToolCallsCard } from './ToolCallsCard.tsx';

afterEach(cleanup);

const s = runDetail(5).summary;
const cell = (id: string): string => screen.getByTestId(id).textContent!;
const row = (id: string): string[] =>
  [...screen.getByTestId(id).querySelectorAll('th, td')].map((c) => c.textContent!);

describe('ToolCallsCard', () => {
  it('shows nothing for a run without tools', () => {
    expect(s.tools).toBeUndefined();
    const { container } = render(<ToolCallsCard s={s} />);
    expect(container.textContent).toBe('');
  });

  it('shows calls, their checks with the failure rate apart from transport errors, and the tool-call times', () => {
    const tools = toolSummary();
    render(<ToolCallsCard s={{ ...s, tools }} />);
    expect(cell('sum-tools-head')).toMatch(/^5 requests offered tools · 3 answered with a call/);
    expect(cell('sum-tools-calls')).toBe('3');
    expect(cell('sum-tools-finish')).toBe('3');
    expect(cell('sum-tools-bad-json')).toBe('1');
    expect(cell('sum-tools-schema')).toBe('1');
    expect(cell('sum-tools-unknown')).toBe('0');
    // 2 failed of 3 calls; the transport error is not a call.
    expect(cell('sum-tools-failure-rate')).toBe('66.7 %');
    expect(cell('sum-tools-errors')).toBe('1');
    // First tool-call token: 50, 80, 40 → p50 50; argument gaps 20, 30, 40, 15; text gaps 10, 20.
    expect(row('sum-tools-ttft')).toEqual(['first tool-call token', '50.00', '74.00', '79.40', '80.00', '3']);
    expect(row('sum-tools-itl').slice(1, 2)).toEqual(['25.00']);
    expect(row('sum-tools-itl')[5]).toBe('4');
    expect(row('sum-tools-text-itl').slice(1, 2)).toEqual(['15.00']);
    expect(row('sum-tools-text-itl')[5]).toBe('2');
  });

  it('an agentic run: sessions, the cap, where session time went, and its steps as the by-step rows', () => {
    const tools = toolSummary();
    const a = tools.agentic!;
    expect([a.sessions, a.steps, a.cappedSessions, a.maxSteps]).toEqual([2, 4, 1, 2]);
    render(<ToolCallsCard s={{ ...s, tools }} />);
    expect(cell('sum-agentic-sessions')).toBe('2');
    expect(cell('sum-agentic-capped')).toBe('1');
    // Sessions: 0 → 600 and 0 → 800 ms; on the server 300 + 200 and 500 + 100; tools 100 and 150.
    expect(row('sum-agentic-session').slice(0, 2)).toEqual(['session time', '700.00']);
    expect(row('sum-agentic-server')[1]).toBe('550.00');
    expect(row('sum-agentic-tools')[1]).toBe('125.00');
    // Of 1,400 ms: 1,100 on the server, 250 on tools, 50 between steps.
    expect(cell('sum-agentic-share-server')).toMatch(/78\.6 %$/);
    expect(cell('sum-agentic-share-tools')).toMatch(/17\.9 %$/);
    expect(cell('sum-agentic-share-other')).toMatch(/3\.6 %$/);
    const split = sessionSplit(a)!;
    expect(split.server + split.tools + split.other).toBeCloseTo(1, 12);
    cleanup();
    // The steps are the run's turns: the by-turn table names them steps.
    const outcome = { ok: true, ttftMs: 40, e2eMs: 300, inputTokens: 30 } as never;
    render(<ByTurnTable s={{ ...s, tools, byTurn: byTurnOf([outcome, outcome], [1, 2]) }} />);
    expect(screen.getByRole('region', { name: 'Latency by step' }).textContent).toMatch(
      /^By step \(ms\)agentic sessions/,
    );
  });

  it('no split without session time', () => {
    const a = { ...toolSummary().agentic!, toolWaitShare: null };
    expect(sessionSplit(a)).toBeNull();
  });
});
