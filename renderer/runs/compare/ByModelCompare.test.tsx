// @vitest-environment happy-dom
/**
 * The comparison view by model: two model-mix runs (the core's own summaries of hand-made lines)
 * whose adapter got 2× slower; its rows are worse, with intervals from its own requests once
 * computed; the base model is the same; a model only B sent is listed as such; a run without a mix
 * is said, not shown as missing every model.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../shared/runs-api.ts';
import { setTransport } from '../../core/api.ts';
import { showCompare, toggleCompare } from '../run-actions.ts';
import { useRunsStore } from '../run-store.ts';
import { FakeTransport } from '../../testing/fake-transport.ts';
import { mixRunDetail } from '../../testing/mix-fixture.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { RunCompareView } from './RunCompareView.tsx';

const a = mixRunDetail({ key: 'a.jsonl', name: 'before', n: 48, models: ['base', 'lora'] });
const b = mixRunDetail({
  key: 'b.jsonl',
  name: 'after',
  n: 72,
  models: ['base', 'lora', 'lora-new'],
  slow: { lora: 2 },
});
const plain: RunDetail = { ...runDetail(5), entry: { ...runDetail(5).entry, key: 'plain.jsonl' } };
const plain2: RunDetail = { ...plain, entry: { ...plain.entry, key: 'plain2.jsonl' } };
const byKey = new Map([a, b, plain, plain2].map((d) => [d.entry.key, d]));

beforeEach(() => {
  setTransport(
    new FakeTransport({
      openRun: (key: unknown) => ({ ok: true, value: byKey.get(key as string) }),
    }),
  );
  useRunsStore.setState({ runs: [], compareKeys: [], compared: null, view: { kind: 'new' } });
});
afterEach(() => {
  cleanup();
  setTransport(null);
});

async function open(...keys: string[]) {
  for (const k of keys) toggleCompare(k);
  render(<RunCompareView />);
  await showCompare();
  await waitFor(() => expect(screen.getByTestId('run-compare').dataset.ready).toBe('yes'));
}

const cells = (table: HTMLElement, id: string) =>
  [...table.querySelectorAll(`tr[data-row="${id}"] > *`)].map((c) => c.textContent?.trim());

describe('ByModelCompare', () => {
  it("shows each model's rows with verdicts, the new model as only in B", async () => {
    await open(a.entry.key, b.entry.key);
    const table = screen.getByTestId('compare-by-model-table');
    const groups = [...table.querySelectorAll('tr.compare-group')].map((g) => g.textContent);
    expect(groups).toEqual(['Model base', 'Model lora', 'Model lora-new — only in B (not in A)']);
    const worse = table.querySelector<HTMLElement>('tr[data-row="model:lora:ttft-p50"] td.compare-rel')!;
    expect(worse.dataset.verdict).toBe('worse');
    expect(worse.textContent).toMatch(/^\+(9\d|1\d\d)(\.\d)? %/);
    // The base model's requests have the same times in both runs.
    const base = table.querySelector<HTMLElement>('tr[data-row="model:base:ttft-p50"] td.compare-rel')!;
    expect(base.textContent).toMatch(/^±0\.00 %/);
    expect(base.dataset.verdict).toBe('same');
    // Only in B: A's cell is absent, no change and no verdict.
    const only = cells(table, 'model:lora-new:ttft-p50');
    expect(only[1]).toBe('—');
    expect(only[3]).toBe('');
    // Intervals come in after the table is drawn: the adapter's p50 gets one from its own requests.
    await waitFor(
      () =>
        expect(
          table.querySelector('tr[data-row="model:lora:ttft-p50"] [data-testid="compare-ci"]')?.textContent,
        ).toMatch(/^\[\+\d+(\.\d+)? %, \+\d+(\.\d+)? %\]$/),
      { timeout: 20_000 }, // the bootstrap runs in slices; slow on a loaded machine
    );
    expect(worse.dataset.verdict).toBe('worse');
    expect(table.textContent).not.toMatch(/NaN|Infinity|undefined/);
    // The overall table is unchanged: no model rows in it.
    expect(screen.getByTestId('compare-table').querySelector('tr[data-row^="model:"]')).toBeNull();
  }, 30_000);

  it('says which run has no mix, and shows nothing when none has one', async () => {
    await open(a.entry.key, plain.entry.key);
    const card = screen.getByTestId('compare-by-model');
    expect(card.textContent).toContain('B: no model mix');
    const groups = [...card.querySelectorAll('tr.compare-group')].map((g) => g.textContent);
    expect(groups).toEqual(['Model base', 'Model lora']);
    cleanup();
    useRunsStore.setState({ compareKeys: [], compared: null });
    await open(plain.entry.key, plain2.entry.key);
    expect(screen.queryByTestId('compare-by-model')).toBeNull();
  });
});
