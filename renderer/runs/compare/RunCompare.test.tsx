// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../shared/runs-api.ts';
import { setTransport } from '../../core/api.ts';
import { showCompare, toggleCompare } from '../run-actions.ts';
import { useRunsStore } from '../run-store.ts';
import { FakeTransport } from '../../testing/fake-transport.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { energyOf, serverWithEnergy } from '../../testing/server-fixture.ts';
import { RunCompareView } from './RunCompareView.tsx';

const native = runDetail(5);
// Two runs whose targets listed GPU telemetry: the second used 1.5× the energy for the same tokens.
const lean: RunDetail = {
  ...native,
  entry: { ...native.entry, key: 'lean.jsonl', name: 'lean' },
  summary: { ...native.summary, server: serverWithEnergy(energyOf(100, 400)) },
};
const hungry: RunDetail = {
  ...native,
  entry: { ...native.entry, key: 'hungry.jsonl', name: 'hungry' },
  summary: { ...native.summary, server: serverWithEnergy(energyOf(150, 400, 'integrated-power')) },
};
const byKey = new Map([lean, hungry].map((d) => [d.entry.key, d]));
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
      byKey.has(key as string)
        ? { ok: true, value: byKey.get(key as string) }
        : key === native.entry.key
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
    // Neither target listed GPU telemetry: no energy rows.
    expect(screen.getByTestId('compare-table').querySelector('tr[data-row="gpu-j-per-token"]')).toBeNull();
    // Measured by two clients: said, with what a Python client's stamping does to TTFT.
    expect(screen.getByTestId('compare-clients-note').textContent).toMatch(
      /^Measured by different clients: A by Tokenscope; B by vLLM’s benchmark client \(Python, aiohttp\)\. Under load/,
    );
    const ttft = screen.getByTestId('compare-cdf-ttft');
    expect(ttft.dataset.lines).toMatch(/^A:[1-9]\d*,B:0$/);
  });

  it('two runs with GPU energy: energy per output token and mean power side by side, under GPU', async () => {
    toggleCompare(lean.entry.key);
    toggleCompare(hungry.entry.key);
    render(<RunCompareView />);
    await showCompare();
    await waitFor(() => expect(screen.getByTestId('run-compare').dataset.ready).toBe('yes'));
    const table = screen.getByTestId('compare-table');
    const cells = (id: string) =>
      [...table.querySelectorAll(`tr[data-row="${id}"] > *`)].map((c) => c.textContent?.trim());
    expect(cells('gpu-j-per-token')).toEqual(['Energy per output token', '0.25 J', '0.38 J', '+50.0 %']);
    expect(cells('gpu-mean-power')).toEqual(['Mean GPU power', '200 W', '300 W', '+50.0 %']);
    const group = table.querySelector('tr[data-row="gpu-j-per-token"]')?.previousElementSibling;
    expect(group?.textContent).toBe('GPU');
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
