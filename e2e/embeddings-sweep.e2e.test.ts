/// <reference lib="dom" />
// A load sweep of an embeddings target from the app, as a user does it: the Runs tab's Sweep mode,
// a target with the openai-embeddings dialect (a simulator whose passes cost 40 ms + 0.05 ms a
// token: batching lifts its capacity well above the concurrency-1 baseline, and near it requests
// queue), the form's batch fields, rates 10…60 req/s, 60 requests a step. The curves
// are E2E against the requests per second achieved (output tok/s is 0 for such a target), with the
// knee; input tok/s against the load in place of the per-user chart; the table's own columns; no
// TTFT, ITL, TPOT or output-token word anywhere in the view.
// Screenshot for docs/app.md (UPDATE_DOCS=1): docs/embeddings-sweep.png.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';

let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let sim: SimServer | undefined;

const TOKEN_WORDS = /TTFT|ITL|TPOT|tok\/s per user|tok\/s\/user|output tok|first token/i;

async function fill(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  sim = await startSim({ port: 0, decodeStepMs: 40, prefillMsPerToken: 0.05, seed: 3 });
  await page.getByTestId('runs-tab').click();
  await page.getByTestId('mode-sweep').click();
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
  await sim?.close();
});

describe('a sweep of an embeddings target in Chromium', () => {
  it('rates 10…60: E2E against req/s with the knee, input tok/s against the load, no token rows', async () => {
    const saved = await app!.server.core.handlers.saveTarget({
      name: 'Embeddings sim',
      baseUrl: sim!.url,
      dialect: 'openai-embeddings',
    });
    if (!saved.ok) throw new Error(saved.error.message);
    await page.getByTestId('run-target').selectOption(saved.value.id);
    await simModelReady(page, '.run-form');
    await page.getByTestId('run-pooling').waitFor();
    await fill('run-requests', '60');
    await fill('run-concurrency', '64');
    await fill('inputLen-value', '64');
    await fill('run-pool-batch-size', '4');
    await fill('run-name', 'embeddings sweep');
    await page.getByTestId('sweep-kind').selectOption('rate');
    await fill('sweep-rates', '10,20,30,40,50,60');
    await page.getByTestId('sweep-start').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sweep-status"]')?.getAttribute('data-finished') === 'true',
      undefined,
      { timeout: 120_000 },
    );
    // The whole curve of E2E against req/s: p50 and p99 a point per load run (a sweep whose
    // over-saturation was confirmed runs no higher load: at least 3 of the 6 on this server).
    expect(await page.getByTestId('sweep-metric-ttft').count()).toBe(0);
    const table = (await page.getByTestId('sweep-table').textContent()) ?? '';
    const loads = new Set([...table.matchAll(/rate (\d+)\/s/g)].map((m) => m[1])).size;
    expect(loads).toBeGreaterThanOrEqual(3);
    const lat = page.getByTestId('sweep-chart-latency');
    expect(await lat.locator('.recharts-scatter-symbol').count()).toBeGreaterThanOrEqual(2 * loads);
    const latText = (await lat.textContent()) ?? '';
    expect(latText).toContain('E2E (ms)');
    expect(latText).toContain('req/s');
    expect(latText).toContain('E2E p99');
    // No point at x = 0: every step's req/s is its own (the axis starts at 0; the points do not).
    const xs = await lat
      .locator('.recharts-scatter-symbol')
      .evaluateAll((els) => els.map((e) => (e as SVGGElement).getBoundingClientRect().x));
    expect(new Set(xs.map((x) => Math.round(x))).size).toBeGreaterThan(2);
    expect(await page.getByTestId('sweep-chart-per-user').count()).toBe(0);
    const input = page.getByTestId('sweep-chart-input');
    expect(await input.textContent()).toContain('input tok/s');
    expect(await input.locator('.recharts-scatter-symbol').count()).toBeGreaterThanOrEqual(2);
    expect(table).toMatch(/req\/s\s+inputs\/s\s+in tok\/s\s+goodput\s+E2E p50\/p90\/p99/);
    expect(table).toContain('rate 10/s');
    const footer = (await page.getByTestId('sweep-footer').textContent()) ?? '';
    expect(footer).toMatch(/^Knee \(p99 E2E vs req\/s\): /);
    const view = await page.getByTestId('sweep-view').evaluate((el) => (el as HTMLElement).innerText);
    expect(view).not.toMatch(TOKEN_WORDS);
    expect(view).not.toMatch(/NaN|undefined/);
    const file = await shot(page, 'embeddings-sweep');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/embeddings-sweep.png'));
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
