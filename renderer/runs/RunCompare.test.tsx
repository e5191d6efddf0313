// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../shared/runs-api.ts';
import { setTransport } from '../core/api.ts';
import { showCompare, toggleCompare } from './run-actions.ts';
import { useRunsStore } from './run-store.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { runDetail } from '../testing/run-fixture.ts';
import { RunCompareView } from './RunCompareView.tsx';

const native = runDetail(5);
// The same numbers as an import that kept only aggregates: no header, no per-request values.
const imported: RunDetail = {
  ...native,
  entry: { ...native.entry, key: 'imported/x.json#0', name: 'vLLM result', imported: true, source: 'vllm' },
  summary: { ...native.summary, source: 'vllm' },
  header: null,
  lines: null,
  outcomes: null,
};

let fake: FakeTransport;
beforeEach(() => {
  fake = new FakeTransport({
    openRun: (key: unknown) =>
      key === native.entry.key
        ? { ok: true, value: native }
        : key === imported.entry.key
          ? { ok: true, value: imported }
          : { ok: false, error: { kind: 'client', code: 'not-found', message: 'no such run' } },
  });
  setTransport(fake);
  useRunsStore.setState({ runs: [], compareKeys: [], compared: null, view: { kind: 'new' } });
});
afterEach(() => {
  cleanup();
  setTransport(null);
});

describe('RunCompareView', () => {
  it('a run against an aggregate-only import of itself: every row the same, CDFs only where values exist', async () => {
    toggleCompare(native.entry.key);
    toggleCompare(imported.entry.key);
    render(<RunCompareView />);
    await showCompare();
    await waitFor(() => expect(screen.getByTestId('run-compare').dataset.ready).toBe('yes'));
    const legend = screen.getAllByTestId('compare-run').map((e) => e.textContent);
    expect(legend[0]).toMatch(/A\s*fixture run/);
    expect(legend[1]).toMatch(/B\s*vLLM result/);
    // Unknown workload fields of the import are not called differences.
    expect(screen.queryByTestId('compare-workload-diff')).toBeNull();
    const rels = [...screen.getByTestId('compare-table').querySelectorAll('td.compare-rel')];
    expect(rels.length).toBeGreaterThan(10);
    for (const td of rels) {
      const v = (td as HTMLElement).dataset.verdict;
      expect(['same', '']).toContain(v);
    }
    expect(screen.getByTestId('compare-table').textContent).not.toMatch(/NaN|Infinity|undefined/);
    // Measured by two clients: said, with what a Python client's stamping does to TTFT.
    expect(screen.getByTestId('compare-clients-note').textContent).toMatch(
      /^Measured by different clients: A by Tokenscope; B by vLLM’s benchmark client \(Python, aiohttp\)\. Under load/,
    );
    const ttft = screen.getByTestId('compare-cdf-ttft');
    expect(ttft.dataset.lines).toMatch(/^A:[1-9]\d*,B:0$/);
  });

  it('a run that cannot be read is said, not hidden', async () => {
    toggleCompare(native.entry.key);
    toggleCompare('gone.jsonl');
    render(<RunCompareView />);
    await showCompare();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/gone\.jsonl: no such run/));
    expect(screen.getByTestId('run-compare').dataset.ready).toBe('no');
  });

  it('ticks keep pick order and at most four runs (the oldest tick makes room)', () => {
    for (const k of ['a', 'b', 'c', 'd', 'e']) toggleCompare(k);
    expect(useRunsStore.getState().compareKeys).toEqual(['b', 'c', 'd', 'e']);
    toggleCompare('c');
    expect(useRunsStore.getState().compareKeys).toEqual(['b', 'd', 'e']);
  });
});
