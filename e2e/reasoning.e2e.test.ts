/// <reference lib="dom" />
// A reasoning request in the stream debugger: the built-in simulator's reasoning mode (the request
// asks for it with `sim_reasoning_tokens`), streamed, then TTFAT and the reasoning/answer split in
// the statistics, the reasoning colour in the timeline's legend, and the reasoning text shown apart.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import type { WebServer } from '../electron/serve.ts';
import { computeRequestStats } from '../shared/stats/request-stats.ts';

let server: WebServer;
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

async function setField(testId: string, value: string): Promise<void> {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  await el.fill(value);
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  ({ server, page } = app);
  await simModelReady(page);
});

afterAll(async () => {
  await closeApp(app);
});

describe('a reasoning request in the debugger', () => {
  it('shows TTFAT, the reasoning/answer tokens and the reasoning events in their own colour', async () => {
    await setField('prompt', 'Think first, then tell me about lighthouses.');
    await setField('max-tokens', '120');
    await setField('extra-body', '{"sim_reasoning_tokens": 48}');
    await page.getByTestId('composer-send').click();
    await page.waitForSelector('[data-testid="request-state"][data-state="done"]', {
      state: 'attached',
      timeout: 30_000,
    });
    const id = (await page.getByTestId('request-state').getAttribute('data-request-id'))!;
    const rec = server.core.requests.get(id)!.record;
    const s = computeRequestStats(rec);
    expect(s.reasoningTokens).toBe(48); // openai-chat: the sim reports reasoning_tokens in usage
    expect(s.answerTokens).toBe(72);
    expect(s.firstAnswerMs!).toBeGreaterThan(s.ttftMs!);
    expect(await page.getByTestId('stats-ttfat').textContent()).toBe(`${s.firstAnswerMs!.toFixed(2)} ms`);
    expect(await page.getByTestId('stats-first-reasoning').textContent()).toBe(`${s.ttftMs!.toFixed(2)} ms`);
    expect(await page.getByTestId('stats-reasoning-tokens').textContent()).toBe('48');
    expect(await page.getByTestId('stats-answer-tokens').textContent()).toBe('72');
    expect(await page.getByTestId('legend-reasoning').isVisible()).toBe(true);
    expect(rec.reasoning.length).toBeGreaterThan(0);
    const reasoning = await shot(page, 'debugger-reasoning');
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS)
      fs.copyFileSync(reasoning, path.join(repoRoot, 'docs/debugger-reasoning.png'));
    expect(consoleErrors).toEqual([]);
  });
});
