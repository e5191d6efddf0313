// @vitest-environment happy-dom
/**
 * A sweep's step runs sit under one collapsible entry in the runs history (closed unless one of
 * its steps is open or ticked), placed where its newest step is; other runs stay as they were.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEntry } from '../../../shared/runs-api.ts';
import { historyRows } from './history-groups.ts';
import { RunHistory } from './RunHistory.tsx';
import { useRunsStore } from '../run-store.ts';

afterEach(cleanup);

function entry(key: string, name: string | null, t: number): RunEntry {
  return {
    key,
    runId: key,
    name,
    startedAtWall: Date.UTC(2026, 0, 2, 3, 0, t),
    model: 'tokenscope-sim',
    url: 'http://127.0.0.1:8000',
    dialect: 'openai-chat',
    source: 'tokenscope',
    imported: false,
    partial: false,
    cancelled: false,
    running: false,
    completed: 10,
    failed: t === 5 ? 2 : 0,
    durationS: 1,
    flagged: false,
    sizeBytes: 100,
  };
}

// Newest first, as the core lists them: 13 sweep steps between two ordinary runs.
const SWEEP = 'sweep-20260102-030000';
const steps = Array.from({ length: 13 }, (_, i) =>
  entry(`${SWEEP}.step${String(i + 1).padStart(2, '0')}.jsonl`, `sweep · rate ${i + 1}`, i + 1),
).reverse();
const RUNS = [entry('later.jsonl', 'after the sweep', 50), ...steps, entry('first.jsonl', 'before', 0)];

beforeEach(() => {
  useRunsStore.setState({
    runs: RUNS,
    listLoaded: true,
    listError: null,
    skipped: [],
    view: { kind: 'new' },
    live: null,
    compareKeys: [],
  });
});

describe('the runs history with a sweep', () => {
  it('groups the steps in one row at the newest step, first step first', () => {
    const rows = historyRows(RUNS);
    expect(rows.map((r) => r.kind)).toEqual(['run', 'sweep', 'run']);
    const g = rows[1]!;
    if (g.kind !== 'sweep') throw new Error('not a sweep');
    expect(g.id).toBe(SWEEP);
    expect(g.name).toBe(SWEEP);
    expect(g.runs.map((r) => r.name)).toEqual(Array.from({ length: 13 }, (_, i) => `sweep · rate ${i + 1}`));
    // A named sweep is called by its name.
    const named = historyRows(
      RUNS.map((r) => ({ ...r, name: r.name?.replace(/^sweep ·/, 'vllm-a ·') ?? null })),
    );
    expect(named[1]!.kind === 'sweep' && named[1]!.name).toBe('vllm-a');
  });

  it('shows the sweep as one closed entry that opens to its steps', () => {
    render(<RunHistory />);
    const list = screen.getByTestId('run-history');
    expect(list.querySelectorAll(':scope > li')).toHaveLength(3);
    const group = screen.getByTestId('run-history-sweep');
    expect(group.textContent).toContain(`Sweep · ${SWEEP}`);
    expect(group.textContent).toContain('13 steps · 130 ok · 2 failed');
    expect(within(group).queryAllByTestId('run-compare-pick')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('run-history-sweep-toggle'));
    expect(within(group).getAllByTestId('run-compare-pick')).toHaveLength(13);
    expect(screen.getByTestId('run-history-sweep-toggle').getAttribute('aria-expanded')).toBe('true');
    // Each step by its load: the sweep is named above them.
    expect(
      [...group.querySelectorAll('li.run-item .run-name')].map((e) => e.textContent).slice(0, 2),
    ).toEqual(['rate 1', 'rate 2']);
  });

  it('is open when one of its steps is ticked for a comparison', () => {
    useRunsStore.setState({ compareKeys: [`${SWEEP}.step03.jsonl`] });
    render(<RunHistory />);
    expect(within(screen.getByTestId('run-history-sweep')).getAllByTestId('run-compare-pick')).toHaveLength(
      13,
    );
  });
});
