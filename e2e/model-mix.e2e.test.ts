/// <reference lib="dom" />
// A model mix in the app, as a user does it: the run form's "Model mix" sends half the requests to
// the simulator's base model and half to an adapter it serves 4× faster (web mode's embedded
// simulator with an extra model name, as `tokenscope sim --extra-model fast-lora=4`). The run view's
// "By model" table shows each model's own numbers (the adapter's ITL a fraction of the base's),
// and "Charts for" draws the histograms and series from one model's requests alone. A second run
// adds a model: the comparison's "By model" table sets each model against itself and lists the
// new one as only in B.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';

let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

/** The form control, its folded section opened first. */
async function control(testId: string) {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  return el;
}

/** Waits until the summary of the run named `name` is shown (the run finished). */
async function summaryOf(name: string): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="run-summary-name"]')?.textContent === n,
    name,
    { timeout: 60_000 },
  );
}

/** Scrolls `el` to the top of the view, the pointer out of the way (no tooltip in the shot). */
async function top(el: ReturnType<Page['getByTestId']>): Promise<void> {
  await el.evaluate((e) => {
    e.scrollIntoView({ block: 'start' });
    // Its heading clear of the app's bar: back up a little in whatever scrolled.
    for (let p: HTMLElement | null = e.parentElement; p; p = p.parentElement)
      if (p.scrollTop > 0) p.scrollTop = Math.max(0, p.scrollTop - 56);
    if (window.scrollY > 0) window.scrollBy(0, -60);
  });
  await page.mouse.move(0, 0);
}

/** Copies a screenshot into docs/ when asked (UPDATE_DOCS=1): tests never dirty tracked files. */
function toDocs(file: string, name: string): void {
  if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs', name));
}

beforeAll(async () => {
  app = await openApp(consoleErrors, {
    sim: {
      extraModels: [
        { name: 'fast-lora', speedup: 4 },
        { name: 'new-lora', speedup: 2 },
      ],
    },
  });
  page = app.page;
  await page.getByTestId('runs-tab').click();
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
});

describe('model mixes from the run form', () => {
  it('runs a mix of two models; the summary breaks numbers down by model; the charts filter by model', async () => {
    await (await control('run-requests')).fill('120');
    await (await control('run-concurrency')).fill('8');
    await (await control('outputLen-value')).fill('24');
    await (await control('run-name')).fill('e2e model mix');
    const mix = await control('run-model-mix');
    await mix.fill('tokenscope-sim=1, fast-lora=1');
    await mix.scrollIntoViewIfNeeded();
    toDocs(await shot(page, 'model-mix-run-form'), 'model-mix-run-form.png');

    await page.getByTestId('run-start').click();
    await summaryOf('e2e model mix');
    const table = page.getByTestId('sum-by-model');
    await table.waitFor();
    const row = async (model: string) =>
      (await page.getByTestId(`sum-model-${model}`).locator('td').allTextContents()).map((t) =>
        Number(t.replace(/,/g, '')),
      );
    // [requests, failed, TTFT median, TTFT p99, ITL median, ITL p99, E2E median, E2E p99, req/s, tok/s]
    const base = await row('tokenscope-sim');
    const fast = await row('fast-lora');
    expect(base[0]! + fast[0]!).toBe(120);
    expect(base[1]).toBe(0);
    expect(fast[1]).toBe(0);
    // Steps 4× shorter: the adapter's median gap well under the base model's (noise only adds).
    expect(fast[4]!).toBeLessThan(base[4]! * 0.6);
    expect(fast[6]!).toBeLessThan(base[6]!);

    // Charts for one model: its requests alone, then all again.
    const filter = page.getByTestId('run-model-filter');
    expect(await filter.getAttribute('data-model')).toBe('all');
    expect(await filter.getAttribute('data-requests')).toBe('120');
    const select = page.getByTestId('run-model-filter-select');
    expect(await select.locator('option').allTextContents()).toEqual([
      'All models',
      expect.stringMatching(/^tokenscope-sim \(\d+ %\)$/),
      expect.stringMatching(/^fast-lora \(\d+ %\)$/),
    ]);
    const hist = page.getByTestId('sum-hist-itl');
    await hist.locator('.recharts-bar-rectangle').first().waitFor();
    const allBars = await hist.innerHTML();
    await select.selectOption('fast-lora');
    expect(await filter.getAttribute('data-model')).toBe('fast-lora');
    expect(await filter.getAttribute('data-requests')).toBe(String(fast[0]));
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="sum-hist-itl"]')?.innerHTML !== before,
      allBars,
    );
    await top(filter);
    toDocs(await shot(page, 'model-mix-charts'), 'model-mix-charts.png');
    await select.selectOption('');
    expect(await filter.getAttribute('data-requests')).toBe('120');
    await top(table);
    toDocs(await shot(page, 'model-mix-summary'), 'model-mix-summary.png');
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('compares two mixed runs by model: each model against itself, a new one listed as only in B', async () => {
    const mix = await control('run-model-mix');
    await mix.fill('tokenscope-sim=1, fast-lora=1, new-lora=1');
    await (await control('run-name')).fill('e2e model mix, new adapter');
    await page.getByTestId('run-start').click();
    await summaryOf('e2e model mix, new adapter');
    const runs = page.locator('[data-testid="run-history"] li');
    await runs.nth(1).getByTestId('run-compare-pick').check();
    await runs.nth(0).getByTestId('run-compare-pick').check();
    await page.getByTestId('run-compare-open').click();
    await page.waitForSelector('[data-testid="run-compare"][data-ready="yes"]');
    await page.waitForFunction(() =>
      /^Intervals:/.test(document.querySelector('[data-testid="compare-ci-status"]')?.textContent ?? ''),
    );
    const byModel = page.getByTestId('compare-by-model-table');
    expect(await byModel.locator('tr.compare-group').allTextContents()).toEqual([
      'Model tokenscope-sim',
      'Model fast-lora',
      'Model new-lora — only in B (not in A)',
    ]);
    const cells = (id: string) => byModel.locator(`tr[data-row="${id}"] > *`).allTextContents();
    const only = await cells('model:new-lora:ttft-p50');
    expect(only[1]).toBe('—');
    expect(only[2]).toMatch(/\d ms$/);
    expect(only[3]).toBe('');
    // Each model's rows have intervals from its own requests once computed.
    expect(
      await byModel.locator('tr[data-row="model:fast-lora:itl-p50"] [data-testid="compare-ci"]').count(),
    ).toBe(1);
    expect(await page.getByTestId('compare-workload-diff').textContent()).toContain(
      'model mix tokenscope-sim=1, fast-lora=1 vs tokenscope-sim=1, fast-lora=1, new-lora=1',
    );
    expect(await page.getByTestId('run-compare').textContent()).not.toMatch(/NaN|Infinity|undefined/);
    await top(page.getByTestId('compare-by-model'));
    toDocs(await shot(page, 'model-mix-compare'), 'model-mix-compare.png');
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
