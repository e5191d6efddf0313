/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';

// The Runs tab's Sweep mode end to end: web mode, Debian's Chromium. Two servers (simulators with
// 4 and 8 sequences a batch, 10-ms decode steps: the built-in one batches 256 and never queues 24
// requests), each swept with rate auto (a baseline, a ceiling, 2 rates between, then the rates
// refined towards the capacity; 24 requests a step). The curves are drawn while a step runs and at
// the end, with the knee the queueing near capacity makes (the ceiling itself is left out of it);
// then the two sweep files are overlaid. Waits on the app's own attributes.
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
const sims: SimServer[] = [];

async function fill(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

async function addServer(name: string, maxNumSeqs: number): Promise<string> {
  const sim = await startSim({ port: 0, maxNumSeqs, decodeStepMs: 10, seed: maxNumSeqs });
  sims.push(sim);
  const saved = await app!.server.core.handlers.saveTarget({
    name,
    baseUrl: sim.url,
    dialect: 'openai-chat',
  });
  if (!saved.ok) throw new Error(saved.error.message);
  return saved.value.id;
}

async function startOn(targetId: string, name: string): Promise<void> {
  await page.getByTestId('run-target').selectOption(targetId);
  await simModelReady(page, '.run-form');
  await fill('run-name', name);
  await page.getByTestId('sweep-start').click();
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="sweep-status"]')?.textContent?.includes(n) === true,
    name,
  );
}

async function finished(): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="sweep-status"]')?.getAttribute('data-finished') === 'true',
    undefined,
    { timeout: 90_000 },
  );
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  await page.getByTestId('runs-tab').click();
  await page.getByTestId('mode-sweep').click();
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
  for (const s of sims) await s.close();
});

describe('load sweeps in Chromium', () => {
  it('runs an auto sweep: a step in progress over the finished ones, then the curves and the knee', async () => {
    const small = await addServer('sim 4 seqs', 4);
    // A sweep runs one target, once: the run form's other targets and repeat count are not offered.
    await page.getByTestId('run-target').waitFor();
    expect(await page.getByTestId('run-repeats').count()).toBe(0);
    expect(await page.getByTestId('run-also-targets').count()).toBe(0);
    await fill('run-requests', '24');
    await fill('run-concurrency', '64');
    await fill('inputLen-value', '32');
    await fill('outputLen-value', '8');
    await page.getByTestId('sweep-kind').selectOption('auto');
    await fill('sweep-steps', '2');
    // Auto sets each step's rate: the form's rate is disabled with a note; the cap applies, said so.
    expect(await page.getByTestId('run-rate').isDisabled()).toBe(true);
    expect(
      await page.locator('.field', { has: page.getByTestId('run-concurrency') }).textContent(),
    ).toContain('Caps every rate step');
    await shot(page, 'sweep-form-auto');
    await startOn(small, 'sim 4 seqs');
    // Live: a later step runs while the earlier ones are drawn.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="sweep-running"]') !== null &&
        document.querySelectorAll('[data-testid="sweep-chart-latency"] .recharts-scatter-symbol').length > 0,
      undefined,
      { timeout: 60_000 },
    );
    expect(await page.getByTestId('sweep-running').textContent()).toMatch(/Step [2-4] running/);
    await shot(page, 'sweep-live');
    await finished();
    const table = await page.getByTestId('sweep-table').textContent();
    expect(table).toContain('baseline');
    expect(table).toContain('ceiling');
    // Four steps, each a point on p50 and p99.
    const lat = page.getByTestId('sweep-chart-latency');
    expect(await lat.locator('.recharts-scatter-symbol').count()).toBeGreaterThanOrEqual(8);
    expect(await lat.textContent()).toContain('TTFT (ms)');
    // Near capacity requests queue for 4 places: p99 TTFT past double the baseline's, a knee.
    expect(await lat.locator('.sweep-knee').count()).toBe(1);
    expect(await page.getByTestId('sweep-footer').textContent()).toContain('Knee (p99 TTFT vs output tok/s)');
    await shot(page, 'sweep-finished');
  }, 150_000);

  it('overlays the sweep files of two servers, each its own colour and legend entry', async () => {
    const big = await addServer('sim 8 seqs', 8);
    await startOn(big, 'sim 8 seqs');
    await finished();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="sweep-list-item"]').length === 2,
    );
    // The first sweep, from the runs folder's list, drawn with the one just finished.
    await page.locator('[data-testid="sweep-list-item"]', { hasText: 'sim 4 seqs' }).click();
    await page.getByTestId('sweep-opened').waitFor();
    const lat = page.getByTestId('sweep-chart-latency');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="sweep-chart-latency"]')
          ?.textContent?.includes('sim 4 seqs · TTFT p99') === true,
    );
    expect(await lat.textContent()).toContain('sim 8 seqs · TTFT p99');
    expect(await lat.locator('.sweep-knee').count()).toBeGreaterThanOrEqual(1);
    const overlay = await shot(page, 'sweep-overlay');
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS) fs.copyFileSync(overlay, path.join(repoRoot, 'docs/sweeps.png'));
    expect(consoleErrors).toEqual([]);
  }, 150_000);
  it('an SLO search: the limit on its chart, the answer as a band of loads, the bracket in the footer', async () => {
    const target = await addServer('sim 4 seqs · SLO', 4);
    // The sweeps opened for the overlay are closed: this view shows the search alone.
    const close = page.locator('[data-testid="sweep-opened"] button[aria-label^="Close "]');
    while ((await close.count()) > 0) await close.first().click();
    await page.getByTestId('sweep-kind').selectOption('slo');
    await fill('sweep-slo', 'p99_ttft_ms<=60');
    await startOn(target, 'sim 4 seqs SLO');
    await finished();
    const footer = (await page.getByTestId('sweep-footer').textContent()) ?? '';
    expect(footer).toContain('SLO p99_ttft_ms<=60');
    const lat = page.getByTestId('sweep-chart-latency');
    expect(await lat.locator('.recharts-reference-line').count()).toBeGreaterThanOrEqual(1);
    expect(await lat.textContent()).toContain('SLO p99_ttft <= 60 ms');
    const load = page.getByTestId('sweep-chart-goodput');
    expect(await load.locator('.recharts-reference-area').count()).toBe(1);
    const sloShot = await shot(page, 'sweep-slo');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(sloShot, path.join(repoRoot, 'docs/sweep-slo.png'));
    expect(consoleErrors).toEqual([]);
  }, 150_000);

  it("groups each sweep's step runs under one entry of the runs history", async () => {
    await page.getByTestId('mode-run').click();
    const groups = page.getByTestId('run-history-sweep');
    await groups.first().waitFor();
    expect(await groups.count()).toBe(3);
    // Closed: no step of a sweep is listed on its own.
    expect(await page.locator('[data-testid="run-history"] > li.run-item').count()).toBe(0);
    await page.getByTestId('run-history-sweep-toggle').first().click();
    expect(await groups.first().locator('li.run-item').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('run-history').scrollIntoViewIfNeeded();
    await shot(page, 'runs-history-sweeps');
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
