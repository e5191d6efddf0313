/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type OpenApp, artifactsDir, closeApp, openApp, simModelReady } from './fixtures.ts';

// Speculative decoding in the server metrics tab, end to end: web mode's embedded simulator runs
// in speculative mode (3 draft tokens, acceptance 0.8 / 0.6 / 0.5 by position), a few streams
// load it, and the metrics tab's card shows the window's acceptance rate, mean acceptance length
// and a bar per draft position, near the configured values (per position 80, 48, 24 %; length
// 2.52). Waits on the app's own text, never on sleeps.
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

beforeAll(async () => {
  app = await openApp(consoleErrors, { sim: { specK: 3, specAccept: [0.8, 0.6, 0.5] } });
  ({ page } = app);
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
});

async function setField(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

describe('speculative decoding card in Chromium', () => {
  it('shows acceptance rate, mean acceptance length and per-position bars from the server', async () => {
    await page.getByTestId('metrics-tab').click();
    await page.waitForSelector('[data-testid="metrics-spec-decode-card"]', { timeout: 15_000 });
    await setField('prompt', 'Write a long story about a lighthouse.');
    await setField('max-tokens', '400');
    await page.getByRole('checkbox', { name: 'ignore_eos' }).check();
    // Exact tokens per chunk (vLLM's continuous_usage_stats) for the debugger's chunk chart.
    const cu = page.getByTestId('continuous-usage');
    const cuSummary = cu.locator('xpath=ancestor::details[not(@open)]/summary');
    if ((await cuSummary.count()) > 0) await cuSummary.first().click();
    await cu.check();
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('history-item').count();
      await page.getByTestId('composer-send').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="history-item"]').length > n,
        before,
        { timeout: 10_000 },
      );
    }
    // Bars appear once two scrapes bracket some drafts; then wait for a few hundred drafts.
    await page.waitForFunction(
      () => {
        const m = /(\d+) drafts/.exec(
          document.querySelector('[data-testid="metrics-spec-decode-card"]')?.textContent ?? '',
        );
        return m !== null && Number(m[1]) >= 300;
      },
      undefined,
      { timeout: 30_000 },
    );
    const card = page.getByTestId('metrics-spec-decode-card');
    const text = (await card.textContent()) ?? '';
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    const bars = await page.locator('[data-testid="spec-position"] .specd-val').allTextContents();
    expect(bars).toHaveLength(3);
    const rates = bars.map((b) => Number(/^([\d.]+) %$/.exec(b)?.[1]));
    // Loose bounds (a few hundred drafts): the exact bound is electron/runs/spec-decode-run.test.ts's.
    expect(rates[0]).toBeGreaterThan(65);
    expect(rates[0]).toBeLessThan(95);
    expect(rates[1]).toBeLessThan(rates[0]!);
    expect(rates[2]).toBeLessThan(rates[1]!);
    const length = Number(/([\d.]+) tok\/step/.exec(text)?.[1]);
    expect(length).toBeGreaterThan(2.1);
    expect(length).toBeLessThan(2.95);
    await card.scrollIntoViewIfNeeded();
    fs.mkdirSync(artifactsDir, { recursive: true });
    await card.screenshot({ path: path.join(artifactsDir, 'metrics-spec-decode.png') });
    expect(consoleErrors).toEqual([]);
  }, 180_000);

  it("the debugger's tokens-per-chunk chart shows the accepted runs as steps", async () => {
    await page.getByTestId('request-tab').click();
    const chart = page.getByTestId('chunk-tokens');
    await chart.waitFor({ timeout: 15_000 });
    // The last request's stream: 1 + the accepted run per chunk, exact counts from the server.
    await page.waitForFunction(
      () =>
        /tokens per step/.test(
          document.querySelector('[data-testid="chunk-tokens-mean"]')?.textContent ?? '',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const mean = Number(
      /([\d.]+) tokens per step/.exec((await page.getByTestId('chunk-tokens-mean').textContent()) ?? '')?.[1],
    );
    expect(mean).toBeGreaterThan(1.8);
    expect(mean).toBeLessThan(3.3);
    expect(await page.getByTestId('chunk-tokens-estimated').count()).toBe(0);
    await chart.scrollIntoViewIfNeeded();
    await chart.screenshot({ path: path.join(artifactsDir, 'request-chunk-tokens.png') });
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
