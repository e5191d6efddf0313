/// <reference lib="dom" />
/**
 * Reports end to end: two runs in the app (web mode, its simulator), "Export report" from the run
 * view and from the comparison, each downloaded file opened in Chromium with every request but
 * the file itself failing the test — it shows the summary (the app's numbers, to the character),
 * the charts, the swimlane and the comparison with nothing from the network. Screenshots of both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { artifactsDir, type OpenApp, closeApp, openApp } from './fixtures.ts';
import { until } from '../electron/testing/until.ts';

let app: OpenApp | undefined;
let page: Page;
const consoleErrors: string[] = [];
const HOSTILE = 'c6 </script><!-- <b>bold</b>';

async function startRun(name: string, requests: number, concurrency: number): Promise<void> {
  const core = app!.server.core;
  const targets = await core.handlers.listTargets();
  if (!targets.ok) throw new Error(targets.error.message);
  const sim = targets.value.find((t) => t.builtin)!;
  const started = await core.handlers.startRun({
    targetId: sim.id,
    name,
    workload: {
      requests,
      maxConcurrency: concurrency,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: 32 },
    },
  });
  if (!started.ok) throw new Error(started.error.message);
  await until(
    async () =>
      (await core.runs.list()).runs.some((r) => r.name === name && !r.running && r.completed === requests),
    30_000,
    20,
    `run ${name}`,
  );
}

/**
 * Opens a report file in its own page; any request other than the file itself is recorded (and
 * aborted): the test fails on it.
 */
async function openOffline(
  browser: Browser,
  file: string,
  blocked: string[],
  errors: string[],
): Promise<Page> {
  const p = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const self = `file://${file}`;
  await p.route('**/*', (route) => {
    const url = route.request().url();
    if (url === self) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  p.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(self);
  await p.getByTestId('report').waitFor();
  return p;
}

async function download(testId: string, name: string): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, name);
  await dl.saveAs(file);
  expect(dl.suggestedFilename()).toMatch(/-report\.html$/);
  return file;
}

beforeAll(async () => {
  app = await openApp(consoleErrors, { acceptDownloads: true });
  page = app.page;
  await startRun('report baseline c2', 12, 2);
  await startRun(HOSTILE, 24, 6);
  await page.getByTestId('runs-tab').click();
}, 90_000);

afterAll(async () => {
  await closeApp(app);
});

describe('reports in Chromium, offline', () => {
  it("exports a run's report from its view: the app's numbers, charts and swimlane, nothing loaded", async () => {
    const item = page.locator('[data-testid="run-history"] li', { hasText: 'report baseline c2' });
    await item.locator('button').first().click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-summary-name"]')?.textContent === 'report baseline c2',
    );
    const appNumbers = await page.getByTestId('run-summary-numbers').textContent();
    const appStats = await page.getByTestId('sum-stats').textContent();
    const file = await download('run-report', 'report-single.html');

    const blocked: string[] = [];
    const errors: string[] = [];
    const r = await openOffline(app!.browser, file, blocked, errors);
    expect(await r.getByTestId('run-summary-numbers').textContent()).toBe(appNumbers);
    expect(await r.getByTestId('sum-stats').textContent()).toBe(appStats);
    expect(await r.getByTestId('sum-completed').textContent()).toBe('12');
    // Charts drawn (recharts SVG paths), the swimlane's canvas painted with every request.
    await r.waitForSelector('[data-testid="sum-hist-ttft"] .recharts-bar-rectangle');
    await r.waitForSelector('[data-testid="compare-cdf-ttft"] path.recharts-line-curve');
    // Drawn (a path with its points): a flat line (concurrency held at its cap all run) has no
    // height, so Playwright would never call it visible.
    await r.waitForSelector('.recharts-line-curve[d^="M"]', { state: 'attached' });
    await r.waitForSelector('[data-testid="sum-swimlane"][data-lanes="12"]');
    expect(Number(await r.getByTestId('sum-swimlane').getAttribute('data-ticks'))).toBeGreaterThan(12 * 10);
    expect(await r.title()).toBe('report baseline c2 · Tokenscope report');
    await r.screenshot({ path: path.join(artifactsDir, 'report-single.png'), fullPage: true });
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await r.close();
  });

  it('exports the comparison: both runs, the table with intervals, CDFs; a hostile name stays text', async () => {
    const native = page.locator('[data-testid="run-history"] li');
    // Baseline first: the older run (listed second, newest first).
    await native.nth(1).getByTestId('run-compare-pick').check();
    await native.nth(0).getByTestId('run-compare-pick').check();
    await page.getByTestId('run-compare-open').click();
    await page.waitForSelector('[data-testid="run-compare"][data-ready="yes"]');
    await page.waitForFunction(() =>
      /^Intervals:/.test(document.querySelector('[data-testid="compare-ci-status"]')?.textContent ?? ''),
    );
    const appTable = await page.getByTestId('compare-table').textContent();
    const file = await download('compare-report', 'report-compare.html');

    const blocked: string[] = [];
    const errors: string[] = [];
    const r = await openOffline(app!.browser, file, blocked, errors);
    await r.getByTestId('report-compare').waitFor();
    expect(await r.getByTestId('compare-table').textContent()).toBe(appTable);
    const legend = r.getByTestId('report-compare-run');
    expect(await legend.nth(0).textContent()).toContain('report baseline c2');
    expect(await legend.nth(1).textContent()).toContain(HOSTILE);
    expect(await r.locator('b', { hasText: 'bold' }).count()).toBe(0);
    expect(await r.getByTestId('report-run').count()).toBe(2);
    await r.waitForSelector('[data-testid="compare-cdf-ttft"] path.recharts-line-curve');
    await r.waitForSelector('[data-testid="sum-swimlane"][data-lanes="24"]');
    expect(await r.getByTestId('report').textContent()).not.toMatch(/NaN|undefined/);
    await r.screenshot({ path: path.join(artifactsDir, 'report-compare.png') });
    await r.getByTestId('report-run').nth(1).scrollIntoViewIfNeeded();
    await r.screenshot({ path: path.join(artifactsDir, 'report-compare-run-b.png') });
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await r.close();
    expect(consoleErrors).toEqual([]);
  });
});
