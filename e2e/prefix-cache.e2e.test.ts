/// <reference lib="dom" />
// Prefix caching in the app, as a user does it: the run form's shared prefix groups with a reset
// first, run against web mode's embedded simulator (which caches like vLLM, in 16-token blocks,
// and reports cached_tokens); the run view's Prefix cache table then shows the cached tokens the
// requests reported, what the workload expected, and the server's own counters over the run.
// One request at a time, so every group's later requests find their prefix cached: the measured
// hits equal the expected ones, and the server counted what the requests reported.
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

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  await page.getByTestId('runs-tab').click();
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
});

describe('prefix groups from the run form', () => {
  it('runs shared prefixes after a reset; the summary sets measured, expected and server hits side by side', async () => {
    await (await control('run-requests')).fill('24');
    await (await control('run-concurrency')).fill('1');
    await (await control('inputLen-value')).fill('40');
    await (await control('outputLen-value')).fill('8');
    await (await control('run-name')).fill('e2e prefix groups');
    await (await control('run-prefix-mode')).selectOption('groups');
    await page.getByLabel('Prefix groups', { exact: true }).fill('4');
    await page.getByLabel('Prefix tokens', { exact: true }).fill('200');
    const reset = page.getByTestId('run-reset-prefix-cache');
    if (!(await reset.isChecked())) await reset.check();
    // The form says what to expect before the run.
    const mode = page.getByTestId('run-prefix-mode');
    await mode.scrollIntoViewIfNeeded();
    const hint = await mode.locator('xpath=ancestor::*[contains(@class,"field")][1]').textContent();
    expect(hint).toMatch(/≈ \d+(\.\d)? ?%/);
    const form = await shot(page, 'run-form-prefix-groups');
    if (process.env.UPDATE_DOCS)
      fs.copyFileSync(form, path.join(repoRoot, 'docs/run-form-prefix-groups.png'));

    await page.getByTestId('run-start').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-summary-name"]')?.textContent === 'e2e prefix groups',
      undefined,
      { timeout: 60_000 },
    );
    const measured = page.getByTestId('sum-prefix-measured');
    await measured.waitFor();
    const cells = async (id: string) => page.getByTestId(id).locator('td').allTextContents();
    const m = await cells('sum-prefix-measured');
    const e = await cells('sum-prefix-expected');
    // [cached tokens, share of prompt tokens, hit requests, …]: one request at a time, every
    // group's first request misses and every later one hits.
    expect(Number(m[2])).toBeGreaterThan(0);
    expect(m[2]).toBe(e[2]);
    const share = (t: string) => Number(/([\d.]+) %/.exec(t)![1]);
    // The chat template's tokens ahead of the prefix shift the 16-token block boundary: within a
    // block per hit of what was expected.
    expect(Math.abs(Number(m[0]!.replace(/,/g, '')) - Number(e[0]!.replace(/,/g, '')))).toBeLessThanOrEqual(
      16 * Number(m[2]),
    );
    // The server's own counters over the run: what the requests reported.
    const s = await cells('sum-prefix-server');
    expect(s[0]).toBe(m[0]);
    expect(share(s[1]!)).toBe(share(m[1]!));
    expect(s.join(' ')).toContain('its counters over the run');
    const table = page.getByRole('region', { name: 'Prefix cache' });
    await table.scrollIntoViewIfNeeded();
    const summary = await shot(page, 'run-prefix-cache');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(summary, path.join(repoRoot, 'docs/run-prefix-cache.png'));
    expect(consoleErrors).toEqual([]);
  });
});
