/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import type { WebServer } from '../electron/serve.ts';
import { computeRequestStats } from '../shared/stats/request-stats.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';

// The stream debugger end to end: web mode started by the test (with its embedded simulator),
// Debian's Chromium, waits on the app's own state attributes, never on sleeps.
let server: WebServer;
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let slow: SimServer | undefined;

const state = () => page.getByTestId('request-state');

async function waitState(s: string, timeout = 30_000): Promise<string> {
  await page.waitForSelector(`[data-testid="request-state"][data-state="${s}"]`, {
    state: 'attached',
    timeout,
  });
  return (await state().getAttribute('data-request-id')) ?? '';
}

async function setField(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  // Some fields live in collapsed <details> sections: open the section as a user would.
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

async function send(): Promise<string> {
  const before = (await state().getAttribute('data-request-id')) ?? '';
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(
    (prev) => {
      const el = document.querySelector('[data-testid="request-state"]');
      return el && el.getAttribute('data-request-id') !== prev && el.getAttribute('data-request-id');
    },
    before,
    { timeout: 10_000 },
  );
  return (await state().getAttribute('data-request-id'))!;
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  ({ server, page } = app);
  // The built-in simulator is the ready default target, its model list loaded.
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
  await slow?.close();
});

describe('stream debugger in Chromium', () => {
  it('opens with the simulator as the default target', async () => {
    const target = await page.getByTestId('target-select').inputValue();
    expect(target).toBe('builtin-sim');
    expect(await page.getByTestId('target-select').locator('option:checked').textContent()).toMatch(
      /simulator/i,
    );
  });

  it('streams a chat request live; timeline and stats agree with the engine record', async () => {
    await setField('prompt', 'Describe a lighthouse keeper’s night in detail.');
    await setField('max-tokens', '160');
    const id = await send();
    // live: mid-stream, the timeline already shows events
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="request-state"]');
      return el?.getAttribute('data-state') === 'running' && Number(el.getAttribute('data-events')) >= 40;
    });
    await shot(page, 'debugger-live');
    await waitState('done');
    expect(await state().getAttribute('data-request-id')).toBe(id);

    const snap = server.core.requests.get(id);
    expect(snap).not.toBeNull();
    const stats = computeRequestStats(snap!.record);
    expect(Number(await state().getAttribute('data-events'))).toBe(snap!.record.events.n);
    expect(Number(await state().getAttribute('data-ttft-ms'))).toBe(stats.ttftMs);
    expect(await page.getByTestId('stats-ttft').textContent()).toContain(stats.ttftMs!.toFixed(2));
    expect(await page.getByTestId('stats-output-tokens').textContent()).toContain(String(stats.outputTokens));
    expect(stats.outputTokens).toBeGreaterThan(0);
    expect(await page.getByTestId('output-text').textContent()).toContain(snap!.record.text.slice(0, 40));
    expect(await page.getByTestId('raw-frames-row').count()).toBeGreaterThan(5);
    const doneShot = await shot(page, 'debugger-done');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(doneShot, path.join(repoRoot, 'docs/debugger.png'));
  });

  it('a mid-stream server error shows its class and keeps the partial text', async () => {
    await setField('max-tokens', '60');
    await setField('extra-body', '{"sim_fault": "error-midstream:8"}');
    const id = await send();
    await waitState('error');
    expect(await page.getByTestId('error-kind').textContent()).toMatch(/server/i);
    const rec = server.core.requests.get(id)!.record;
    expect(rec.error?.kind).toBe('server');
    expect(await page.getByTestId('error-message').textContent()).toContain(rec.error!.message.slice(0, 30));
    expect(rec.text.length).toBeGreaterThan(0);
    expect(await page.getByTestId('output-text').textContent()).toContain(rec.text.slice(0, 20));
    expect(Number(await state().getAttribute('data-events'))).toBe(rec.events.n);
    const errorShot = await shot(page, 'debugger-error');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(errorShot, path.join(repoRoot, 'docs/debugger-error.png'));
    await setField('extra-body', '');
  });

  it('Send is disabled (and says why) while the extra body is not JSON; the shortcut reads Ctrl+↵ here', async () => {
    const sendBtn = page.getByTestId('composer-send');
    expect(await sendBtn.locator('kbd').textContent()).toBe('Ctrl+↵'); // Chromium on Linux
    await setField('extra-body', '{"top_k": 20');
    expect(await sendBtn.isDisabled()).toBe(true);
    expect(await sendBtn.getAttribute('title')).toMatch(/^Fix the extra body first: /);
    await setField('extra-body', '{"top_k": 20}');
    expect(await sendBtn.isDisabled()).toBe(false);
    await setField('extra-body', '');
  });

  it('an HTTP error before the stream shows its status and body', async () => {
    await setField('extra-body', '{"sim_fault": "http-503"}');
    await send();
    await waitState('error');
    expect(await page.getByTestId('error-kind').textContent()).toMatch(/http/i);
    expect(await page.getByTestId('error-status').textContent()).toContain('503');
    await setField('extra-body', '');
  });

  it('cancel stops the stream and the server aborts it', async () => {
    await setField('max-tokens', '4000');
    await send();
    await page.waitForFunction(
      () =>
        Number(document.querySelector('[data-testid="request-state"]')?.getAttribute('data-events')) >= 10,
    );
    await page.getByTestId('composer-cancel').click();
    await waitState('cancelled');
    const sim = server.core.sim!;
    await expect.poll(() => sim.state().running, { timeout: 5000 }).toBe(0);
    // A neutral state of its own, not a red failure; what arrived is kept.
    await page.getByTestId('cancelled-view').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('error-partial').textContent()).toMatch(
      /^Kept what arrived before the cancel/,
    );
    await shot(page, 'request-cancelled');
  });

  it('history keeps the requests; two can be compared on one time axis', async () => {
    await setField('max-tokens', '48');
    await page.getByTestId('continuous-usage').check();
    await send();
    await waitState('done');
    const items = page.getByTestId('history-item');
    expect(await items.count()).toBeGreaterThanOrEqual(4);
    // compare the current (newest) request with the first successful one
    const done = page.locator('[data-testid="history-item"][data-state="done"]');
    await done.last().getByTestId('history-compare').click();
    await page.getByTestId('compare-view').waitFor();
    await shot(page, 'debugger-compare');
    expect(await page.getByTestId('compare-canvas').count()).toBeGreaterThan(0);
  });

  it('sends the same request to two servers at once; both stream side by side on one axis', async () => {
    // A second server: another simulator, its decode step twice as slow.
    slow = await startSim({ port: 0, decodeStepMs: 40, seed: 2 });
    const saved = await server.core.handlers.saveTarget({
      name: 'slow sim',
      baseUrl: slow.url,
      dialect: 'openai-chat',
      // Its GPUs too (the simulator's dcgm-exporter), as the built-in target lists its own.
      telemetryUrls: [`${slow.url}/gpu-metrics`],
    });
    if (!saved.ok) throw new Error(saved.error.message);
    await page
      .locator('[data-testid="side-by-side-select"] option', { hasText: 'slow sim' })
      .waitFor({ state: 'attached' });
    await page.getByTestId('side-by-side-select').selectOption(saved.value.id);
    expect(await page.getByTestId('composer-send').textContent()).toMatch(/^Send to both/);
    await setField('max-tokens', '24');
    const a = await send();
    await page.getByTestId('compare-view').waitFor();
    await waitState('done');
    const list = await server.core.handlers.listHistory();
    if (!list.ok) throw new Error(list.error.message);
    const byId = new Map(list.value.map((r) => [r.id, r]));
    const ra = byId.get(a)!;
    const pair = list.value.filter((r) => r.id !== a && Math.abs(r.startedAtWall - ra.startedAtWall) < 250);
    // The other request went to the slow simulator, at the same moment (one click, two calls).
    expect(pair.map((r) => r.targetName)).toEqual(['slow sim']);
    await expect
      .poll(async () => {
        const l = await server.core.handlers.listHistory();
        return l.ok ? l.value.find((r) => r.id === pair[0]!.id)?.state : null;
      })
      .toBe('done');
    expect(ra.targetName).toBe('Built-in simulator');
    // Both lanes are drawn on the comparison's one time axis, and the table has both TTFTs.
    expect(await page.getByTestId('compare-view').textContent()).toMatch(
      /A: Built-in simulator.*B: slow sim/s,
    );
    const ttftRow = page.locator('[data-testid="compare-view"] table tr', { hasText: /^TTFT/ }).first();
    expect(await ttftRow.textContent()).toMatch(/^TTFT[\d.]+ ms[\d.]+ ms/);
    await page.getByTestId('compare-view').scrollIntoViewIfNeeded();
    await shot(page, 'debugger-side-by-side');
    await page.getByTestId('side-by-side-select').selectOption('');
    expect(await page.getByTestId('composer-send').textContent()).toMatch(/^Send /);
  });

  it('server metrics of both servers side by side, one column each', async () => {
    await page.getByTestId('metrics-tab').click();
    await page.getByTestId('metrics-compare-select').selectOption({ label: 'slow sim' });
    // Both scraped: each column's status turns ok with the vLLM profile detected.
    await page.waitForFunction(
      () => {
        const cols = [...document.querySelectorAll('[data-testid="metrics-column"]')];
        return (
          cols.length === 2 &&
          cols.every(
            (c) => c.querySelector('[data-testid="metrics-status"]')?.getAttribute('data-status') === 'ok',
          )
        );
      },
      undefined,
      { timeout: 20_000 },
    );
    const names = await page.locator('.metrics-column-head').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(['A Built-in simulator', 'B slow sim']);
    for (const col of await page.getByTestId('metrics-column').all()) {
      expect(await col.getByTestId('metrics-status').getAttribute('data-profile')).toBe('vllm-v1');
      expect(await col.getByTestId('metrics-running-chart').count()).toBe(1);
    }
    // The same long request at both, sent from the composer beside the panel: each server's own
    // gauge (the legend of its Requests card) shows it running, at the same moment.
    await page.getByTestId('side-by-side-select').selectOption({ label: 'slow sim' });
    // Long enough that both still generate when their rates show (the slow one: 24 s at 25 tok/s),
    // whatever the scrapes' phase on a busy machine.
    await setField('max-tokens', '600');
    await page.getByTestId('composer-send').click();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="metrics-column"] [data-testid="metrics-running-chart"]')]
          .map((c) => /running\s*1(?!\d)/.test(c.closest('.card')?.textContent ?? ''))
          .filter(Boolean).length === 2,
      undefined,
      { timeout: 20_000 },
    );
    // And both servers' generation counters turn into their rates (the slow one decodes at half
    // the speed: 25 tok/s against 50).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="metrics-column"] .card')]
          .filter((c) => /^Token throughput/i.test(c.querySelector('h3')?.textContent ?? ''))
          .map((c) => Number(/generation\s*([\d.]+)\s*tok\/s/.exec(c.textContent ?? '')?.[1] ?? 0))
          // 25 and 50 tok/s by configuration; a rate over one late scrape interval reads lower.
          .filter((v) => v >= 15).length === 2,
      undefined,
      { timeout: 20_000 },
    );
    // The two columns read row by row: each chart starts at the same height on both sides, even
    // where one side's card is taller (a longer footnote, a wrapped legend).
    const tops = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="metrics-column"]')].map((col) =>
        [...col.querySelectorAll('.mchart-body[data-testid]')].map((c) => ({
          id: c.getAttribute('data-testid'),
          top: Math.round(c.closest('.card')!.getBoundingClientRect().top),
        })),
      ),
    );
    expect(tops[0]!.map((c) => c.id)).toEqual(tops[1]!.map((c) => c.id));
    expect(tops[0]!.length).toBeGreaterThanOrEqual(5);
    expect(tops[0]!.map((c) => c.top)).toEqual(tops[1]!.map((c) => c.top));
    const sideShot = await shot(page, 'metrics-side-by-side');
    // README screenshots are refreshed on request only (UPDATE_DOCS=1), so tests never dirty tracked files.
    if (process.env.UPDATE_DOCS)
      fs.copyFileSync(sideShot, path.join(repoRoot, 'docs/metrics-side-by-side.png'));
    await page.getByTestId('side-by-side-select').selectOption('');
    await page.getByTestId('metrics-compare-select').selectOption('');
    await page.getByTestId('request-tab').click();
  });

  it('logged no page errors', () => {
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
