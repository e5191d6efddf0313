/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';

// GPU telemetry in the server metrics tab, end to end: web mode's embedded simulator serves two
// synthetic GPUs (/gpu-metrics, dcgm-exporter format) listed as its target's telemetry; a few
// streams load its batch, and the GPU cards show one line per GPU rising with it; a load run's
// summary shows the energy of both GPUs per output token. Waits on the app's own attributes and
// text, never on sleeps.
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

  it("a load run's summary: the two GPUs' energy, per output token, by their energy counters", async () => {
    await page.getByTestId('runs-tab').click();
    await simModelReady(page, '.run-form');
    await setField('run-requests', '40');
    await setField('run-concurrency', '8');
    await setField('outputLen-value', '64');
    await setField('run-name', 'e2e energy run');
    await page.getByTestId('run-start').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-summary-name"]')?.textContent === 'e2e energy run',
      undefined,
      { timeout: 30_000 },
    );
    const energy = page.getByTestId('sum-energy');
    await energy.waitFor();
    const outTokens = Number((await page.getByTestId('sum-output-tokens').textContent())!.replace(/,/g, ''));
    expect(outTokens).toBe(40 * 64);
    const perToken = (await page.getByTestId('sum-energy-per-token').textContent()) ?? '';
    const pt = /^([\d.]+) J over ([\d,]+) tokens$/.exec(perToken);
    expect(pt, perToken).not.toBeNull();
    expect(Number(pt![2]!.replace(/,/g, ''))).toBe(outTokens);
    const total = (await page.getByTestId('sum-energy-total').textContent()) ?? '';
    const tm = /^([\d,.]+) (k?J) · 2 GPUs$/.exec(total);
    expect(tm, total).not.toBeNull();
    const joules = Number(tm![1]!.replace(/,/g, '')) * (tm![2] === 'kJ' ? 1000 : 1);
    // Per token is the total over the tokens (both shown to three figures).
    expect(Number(pt![1]) / (joules / outTokens)).toBeCloseTo(1, 1);
    // Two GPUs together draw at least their idle power (72 W + 76 W) and at most their limits.
    const watts = Number(
      /^([\d.]+) W/.exec((await page.getByTestId('sum-energy-power').textContent()) ?? '')?.[1],
    );
    expect(watts).toBeGreaterThan(148);
    expect(watts).toBeLessThan(2000);
    expect(await page.getByTestId('sum-energy-method').textContent()).toBe('energy counter');
    expect((await page.getByTestId('sum-server').textContent()) ?? '').not.toMatch(/NaN|undefined|Infinity/);
    await page.setViewportSize({ width: 1440, height: 1400 });
    await page.getByTestId('sum-server').scrollIntoViewIfNeeded();
    const file = 'test-artifacts/run-energy.png';
    await page.getByTestId('sum-server').screenshot({ path: file });
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/run-energy.png'));
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(consoleErrors).toEqual([]);
  });
});
