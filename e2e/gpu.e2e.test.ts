/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, shot, simModelReady } from './fixtures.ts';

// GPU telemetry in the server metrics tab, end to end: web mode's embedded simulator serves two
// synthetic GPUs (/gpu-metrics, dcgm-exporter format) listed as its target's telemetry; a few
// streams load its batch, and the GPU cards show one line per GPU rising with it. Waits on the
// charts' own attributes, never on sleeps.
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  ({ page } = app);
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
});

/** "GPU-…:612.3,GPU-…:588" (TimeChart's data-peaks) → its values. */
const peaksOf = (attr: string | null): number[] =>
  (attr ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => Number(p.slice(p.lastIndexOf(':') + 1)));

async function setField(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

describe('GPU panels in Chromium', () => {
  it('charts utilization, memory and power of each GPU while streams run', async () => {
    await page.getByTestId('metrics-tab').click();
    await page.waitForSelector('[data-testid="gpu-cards"]', { timeout: 15_000 });
    await setField('prompt', 'Write a long story about a lighthouse.');
    await setField('max-tokens', '300');
    await page.getByRole('checkbox', { name: 'ignore_eos' }).check();
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('history-item').count();
      await page.getByTestId('composer-send').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="history-item"]').length > n,
        before,
        { timeout: 10_000 },
      );
    }
    // Utilization above 0 on the chart, then three more scrapes so the lines show the load.
    await page.waitForFunction(
      () =>
        /:[1-9]/.test(
          document.querySelector('[data-testid="gpu-util-chart"]')?.getAttribute('data-peaks') ?? '',
        ),
      undefined,
      { timeout: 15_000 },
    );
    const pts = async () =>
      Number(
        /:(\d+)/.exec((await page.getByTestId('gpu-power-chart').getAttribute('data-points')) ?? '')?.[1] ??
          0,
      );
    const seen = await pts();
    await page.waitForFunction(
      (n) =>
        Number(
          /:(\d+)/.exec(
            document.querySelector('[data-testid="gpu-power-chart"]')?.getAttribute('data-points') ?? '',
          )?.[1] ?? 0,
        ) >= n,
      seen + 3,
      { timeout: 10_000 },
    );
    for (const id of ['gpu-util-chart', 'gpu-memory-chart', 'gpu-power-chart']) {
      const chart = page.getByTestId(id);
      expect(await chart.getAttribute('data-overlay')).toBeNull();
      expect(peaksOf(await chart.getAttribute('data-peaks'))).toHaveLength(2); // one line per GPU
      expect(await chart.locator('path.recharts-line-curve').count()).toBe(2);
    }
    const power = peaksOf(await page.getByTestId('gpu-power-chart').getAttribute('data-peaks'));
    expect(Math.min(...power)).toBeGreaterThan(76); // above idle (72 W, 76 W): the batch is running
    const legend = (await page.getByTestId('gpu-cards').textContent()) ?? '';
    expect(legend).toMatch(/GPU 0/);
    expect(legend).toMatch(/GPU 1/);
    expect(legend).not.toMatch(/NaN|Infinity/);
    await page.getByTestId('gpu-cards').scrollIntoViewIfNeeded();
    await shot(page, 'gpu-panels');
    await page.getByTestId('gpu-cards').screenshot({ path: 'test-artifacts/gpu-cards.png' });
    expect(consoleErrors).toEqual([]);
  });
});
