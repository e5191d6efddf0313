/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type OpenApp, artifactsDir, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';

// The server-metrics panel end to end: web mode with its embedded simulator (vLLM v1 /metrics),
// Debian's Chromium; a few concurrent streams so the server's gauges move. Waits on the app's
// own attributes (data-status, data-peaks …), never on sleeps.
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

const REQUESTS = 3;
const TOKENS = 300; // ~6 s per stream at the simulator's 20 ms decode step

/** "running:3,waiting:0" (TimeChart's data-peaks / data-points) → { running: 3, waiting: 0 }. */
function perLine(attr: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (attr ?? '').split(',')) {
    const i = part.lastIndexOf(':');
    if (i > 0) out[part.slice(0, i)] = Number(part.slice(i + 1));
  }
  return out;
}

async function setField(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

/** Click Send and wait until the new request is in the history (the composer is free again). */
async function send(): Promise<void> {
  const before = await page.getByTestId('history-item').count();
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-testid="history-item"]').length > n &&
      !(document.querySelector('[data-testid="composer-send"]') as HTMLButtonElement | null)?.disabled,
    before,
    { timeout: 10_000 },
  );
}

const NUMBER_WITH_UNIT = /^\d+(\.\d+)?\s(ms|s)$/;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  ({ page } = app);
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
});

describe('server metrics panel in Chromium', () => {
  it('scrapes the built-in simulator and detects vLLM v1', async () => {
    await page.getByTestId('metrics-tab').click();
    await page.waitForSelector('[data-testid="metrics-status"][data-status="ok"]', { timeout: 15_000 });
    const status = page.getByTestId('metrics-status');
    expect(await status.getAttribute('data-profile')).toBe('vllm-v1');
    expect(await status.textContent()).toMatch(/vLLM/);
    // Rates and histogram deltas need a scrape before the load: wait for the second one.
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="metrics-running-chart"]')?.hasAttribute('data-overlay'),
      undefined,
      { timeout: 10_000 },
    );
  });

  it('charts requests running on the server while streams are in flight', async () => {
    await setField('prompt', 'Write a long story about a lighthouse.');
    await setField('max-tokens', String(TOKENS));
    await page.getByRole('checkbox', { name: 'ignore_eos' }).check(); // exactly TOKENS each
    for (let i = 0; i < REQUESTS; i++) await send();
    // The simulator's running gauge, scraped every second, reaches the chart while they stream.
    await page.waitForFunction(
      () => {
        const peaks =
          document.querySelector('[data-testid="metrics-running-chart"]')?.getAttribute('data-peaks') ?? '';
        return /(^|,)running:[1-9]/.test(peaks);
      },
      undefined,
      { timeout: 15_000 },
    );
    const chart = page.getByTestId('metrics-running-chart');
    // Two more scrapes mid-stream, so the screenshot shows the load, not its first sample.
    const seen = perLine(await chart.getAttribute('data-points')).running!;
    await page.waitForFunction(
      (n) => {
        const attr =
          document.querySelector('[data-testid="metrics-running-chart"]')?.getAttribute('data-points') ?? '';
        return Number(/(?:^|,)running:(\d+)/.exec(attr)?.[1] ?? 0) >= n;
      },
      seen + 2,
      { timeout: 10_000 },
    );
    expect(await page.locator('[data-testid="history-item"][data-state="running"]').count()).toBeGreaterThan(
      0,
    );
    const peaks = perLine(await chart.getAttribute('data-peaks'));
    const points = perLine(await chart.getAttribute('data-points'));
    expect(peaks.running).toBeGreaterThanOrEqual(1);
    expect(peaks.running).toBeLessThanOrEqual(REQUESTS);
    expect(peaks.client).toBeGreaterThanOrEqual(1); // this client's requests in flight, dashed
    expect(points.running).toBeGreaterThanOrEqual(2);
    // Drawn, not only computed: the running line is an SVG path with segments.
    const d = await chart.locator('path.recharts-line-curve').first().getAttribute('d');
    expect((d ?? '').split(/[LM]/).length).toBeGreaterThan(2);
    expect(await page.getByTestId('metrics-running-chart-card').textContent()).not.toMatch(/NaN|Infinity/);
    await shot(page, 'metrics-live');
  });

  it('compares client and server TTFT once the requests are done', async () => {
    // All finished (the history shows no running request), then one more scrape for the histogram.
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="history-item"][data-state="running"]').length === 0,
      undefined,
      { timeout: 30_000 },
    );
    // The comparison window ends at the newest scrape: wait for one after the last request ended.
    await page.waitForFunction(
      ([re, n]) => {
        const txt = (id: string) =>
          document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
        const r = new RegExp(re);
        return (
          txt('cvs-client-tokens').includes(`(${n} requests)`) &&
          ['cvs-client-ttft-p50', 'cvs-client-ttft-p99', 'cvs-server-ttft-p50', 'cvs-server-ttft-p99'].every(
            (id) => r.test(txt(id)),
          )
        );
      },
      [NUMBER_WITH_UNIT.source, REQUESTS] as const,
      { timeout: 15_000 },
    );
    const text = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').trim();
    const clientP50 = await text('cvs-client-ttft-p50');
    const serverP50 = await text('cvs-server-ttft-p50');
    expect(clientP50).toMatch(NUMBER_WITH_UNIT);
    expect(serverP50).toMatch(NUMBER_WITH_UNIT);
    expect(await text('cvs-diff-ttft-p50')).toMatch(/^[+−]?\d+(\.\d+)?\s(ms|s)$|^0 ms$/);
    // The client saw all of them; the server counted at least as many tokens as this client got.
    const cvs = page.getByTestId('client-vs-server');
    expect(await cvs.textContent()).toContain(`${REQUESTS} requests`);
    expect(await text('cvs-server-tokens')).toMatch(/\d[\d,]* generated/);
    const clientTokens = Number((await text('cvs-client-tokens')).split(/\s/)[0]!.replace(/,/g, ''));
    const serverTokens = Number((await text('cvs-server-tokens')).split(/\s/)[0]!.replace(/,/g, ''));
    expect(clientTokens).toBe(REQUESTS * TOKENS);
    expect(serverTokens).toBeGreaterThanOrEqual(clientTokens);
    // The server TTFT chart has the client's dots and the server's quantiles.
    const ttft = page.getByTestId('metrics-ttft-chart');
    expect(perLine(await ttft.getAttribute('data-points')).client).toBe(REQUESTS);
    expect(perLine(await ttft.getAttribute('data-points')).p50).toBeGreaterThanOrEqual(1);
    // The simulator's TTFTs (tens of ms) lie in vLLM's 20-ms buckets, wide next to them: each step's
    // p50 is drawn with its bucket as a band, and the window's p50 reads as that bucket.
    expect(perLine(await ttft.getAttribute('data-bands')).p50).toBeGreaterThanOrEqual(1);
    expect(await ttft.locator('xpath=ancestor::section[1]').textContent()).toMatch(/p50\s*\d+–\d+ ms/);
    const panel = (await page.getByTestId('metrics-panel').textContent()) ?? '';
    expect(panel).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('explorer: search filters the series, picking one plots it', async () => {
    const rows = page.getByTestId('explorer-series-row');
    await rows.first().waitFor();
    const all = await rows.count();
    expect(all).toBeGreaterThan(20);
    await page.getByTestId('explorer-search').fill('time_to_first_token');
    await expect.poll(() => rows.count()).toBeLessThan(all);
    const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toContain('time_to_first_token');
    await page.getByTestId('explorer-search').fill('zz-no-such-series');
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByTestId('explorer-search').fill('vllm:time_to_first_token_seconds');
    await rows.first().click();
    const chart = page.getByTestId('explorer-chart');
    await chart.waitFor();
    expect(await chart.getAttribute('data-kind')).toBe('quantiles');
    // p50/p90/p99 of what the server observed: the requests above gave it observations.
    await page.waitForFunction(() => {
      const body = document.querySelector('[data-testid="explorer-chart"] .mchart-body');
      return /p50:[1-9]/.test(body?.getAttribute('data-points') ?? '');
    });
    expect(await chart.locator('path.recharts-line-curve').count()).toBeGreaterThan(0);
    expect(await chart.textContent()).not.toMatch(/NaN|Infinity/);
    await chart.scrollIntoViewIfNeeded();
    await page.getByTestId('explorer-search').scrollIntoViewIfNeeded();
    await shot(page, 'metrics-explorer');
    // A counter is plotted as its rate.
    await page.getByTestId('explorer-search').fill('generation_tokens_total');
    await rows.first().click();
    await expect.poll(() => chart.getAttribute('data-kind')).toBe('rate');
  });

  it('clicking a history entry leaves the metrics panel for that request', async () => {
    const item = page.getByTestId('history-item').last();
    const id = await item.getAttribute('data-request-id');
    await item.locator('.hi-main').click();
    await page.waitForSelector(`[data-testid="request-state"][data-request-id="${id}"][data-state="done"]`);
    expect(await page.getByTestId('request-tab').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('metrics-panel').count()).toBe(0);
  });

  // README screenshots are refreshed on request only (UPDATE_DOCS=1 npm run test:e2e), so a
  // test run never dirties tracked files.
  if (process.env.UPDATE_DOCS) {
    it('publishes the live screenshot for the README', () => {
      fs.mkdirSync(path.join(repoRoot, 'docs'), { recursive: true });
      fs.copyFileSync(path.join(artifactsDir, 'metrics-live.png'), path.join(repoRoot, 'docs/metrics.png'));
      expect(fs.statSync(path.join(repoRoot, 'docs/metrics.png')).size).toBeGreaterThan(10_000);
    });
  }

  it('logged no page errors', () => {
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
