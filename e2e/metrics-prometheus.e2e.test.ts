/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, shot, simModelReady } from './fixtures.ts';
import type { WebServer } from '../electron/serve.ts';
import { startPrometheus, type PrometheusHandle } from '../electron/testing/prometheus.ts';

// The metrics panel fed by a real Prometheus (Debian `prometheus`) that scrapes the app's
// embedded simulator every second: the user adds a target whose server metrics come from
// Prometheus with a selector, from the target editor, and watches the panel while streams run.
let server: WebServer;
let prom: PrometheusHandle;
let simUrl: string;
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  ({ server, page } = app);
  const list = await server.core.handlers.listTargets();
  if (!list.ok) throw new Error(list.error.message);
  simUrl = list.value.find((t) => t.builtin)!.baseUrl;
  prom = await startPrometheus([{ job: 'sim', target: new URL(simUrl).host }]);
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
  await prom?.stop();
});

describe('server metrics through Prometheus, in Chromium', () => {
  it('adds a target whose metrics come from Prometheus; a bad selector is refused with why', async () => {
    await page.getByTestId('target-add').click();
    await page.getByTestId('target-name').fill('sim via Prometheus');
    await page.getByTestId('target-url').fill(simUrl);
    await page.getByTestId('target-source-prometheus').check();
    await page.getByTestId('target-prometheus-url').fill(prom.url);
    await page.getByTestId('target-prometheus-selector').fill('job=sim');
    await page.getByTestId('target-save').click();
    const fieldError = page.locator('.metrics-source .field-error');
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/expected label="value"/);
    await shot(page, 'target-editor-prometheus');
    await page.getByTestId('target-prometheus-selector').fill('{job="sim"}');
    await page.getByTestId('target-save').click();
    await page.waitForFunction(() => {
      const s = document.querySelector<HTMLSelectElement>('[data-testid="target-select"]');
      return s?.selectedOptions[0]?.textContent === 'sim via Prometheus';
    });
  });

  it('the panel says where the numbers come from and charts the load Prometheus saw', async () => {
    await page.getByTestId('metrics-tab').click();
    await page.waitForSelector('[data-testid="metrics-status"][data-status="ok"]', { timeout: 20_000 });
    const status = page.getByTestId('metrics-status');
    expect(await status.getAttribute('data-profile')).toBe('vllm-v1');
    expect(await status.textContent()).toMatch(/via Prometheus/);
    expect(await page.getByTestId('metrics-source').textContent()).toBe(`{job="sim"} @ ${prom.url}/`);

    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('[data-testid="model-select"]')?.value === 'tokenscope-sim',
    );
    await page.getByTestId('prompt').fill('Write a long story about a lighthouse.');
    const maxTokens = page.getByTestId('max-tokens');
    const closed = maxTokens.locator('xpath=ancestor::details[not(@open)]/summary');
    if ((await closed.count()) > 0) await closed.first().click();
    await maxTokens.fill('300');
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('history-item').count();
      await page.getByTestId('composer-send').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="history-item"]').length > n,
        before,
      );
    }
    await page.waitForFunction(
      () =>
        /(^|,)running:[1-9]/.test(
          document.querySelector('[data-testid="metrics-running-chart"]')?.getAttribute('data-peaks') ?? '',
        ),
      undefined,
      { timeout: 20_000 },
    );
    // A few more of Prometheus' scrapes, so the picture shows the load rather than its first sample.
    const points = async (): Promise<number> =>
      Number(
        /(?:^|,)running:(\d+)/.exec(
          (await page.getByTestId('metrics-running-chart').getAttribute('data-points')) ?? '',
        )?.[1] ?? 0,
      );
    const seen = await points();
    await expect.poll(points, { timeout: 10_000 }).toBeGreaterThanOrEqual(seen + 2);
    expect(await page.getByTestId('metrics-panel').textContent()).not.toMatch(/NaN|Infinity|undefined/);
    await shot(page, 'metrics-prometheus');
  });

  it('logged no page errors', () => {
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
