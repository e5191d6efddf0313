/// <reference lib="dom" />
// A trace replay in the app: 14 real Mooncake requests replayed at ×10 against the simulator land
// in the runs folder; reopened from the history, the run view's self-check shows the replay's
// schedule lag with the file's own numbers, and its arrivals as the trace's (no configured rate).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';
import { CORPUS_DIR } from '../electron/testing/corpus.ts';
import { runAgainst } from '../electron/testing/runs.ts';

let page: Page;
let sim: SimServer;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let run: Awaited<ReturnType<typeof runAgainst>>;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  sim = await startSim({
    port: 0,
    seed: 3,
    decodeStepMs: 4,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0.002,
  });
  run = await runAgainst(
    sim,
    {
      name: 'e2e trace replay',
      prompts: {
        type: 'trace',
        path: path.join(CORPUS_DIR, 'traces', 'mooncake-conversation-head.jsonl'),
        speedup: 10,
        maxLagMs: 50,
      },
      sampling: { maxTokens: 32 },
      testRequest: false,
    },
    { outFile: path.join(app.userData, 'runs', 'trace-replay.jsonl') },
  );
}, 90_000);

afterAll(async () => {
  await sim?.close();
  await closeApp(app);
});

describe('a trace replay in the run view', () => {
  it("shows the replay's schedule lag from the file", async () => {
    const replay = run.summary.replay!;
    expect(replay.requests).toBe(14);
    expect(replay.speedup).toBe(10);
    await page.reload(); // the history is read from the runs folder when the page loads
    await page.getByTestId('runs-tab').click();
    const item = page.locator('[data-testid="run-history"] li', { hasText: 'e2e trace replay' });
    await item.waitFor();
    await item.locator('button').first().click();
    const row = page.getByTestId('sum-replay');
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Trace replay ×10');
    expect(text).toContain(
      `${replay.lagP50Ms.toFixed(2)} / ${replay.lagP99Ms.toFixed(2)} / ${replay.lagMaxMs.toFixed(2)}`,
    );
    expect(await page.getByTestId('sum-arrivals').textContent()).toContain('trace ×10');
    await row.scrollIntoViewIfNeeded();
    const replayShot = await shot(page, 'run-trace-replay');
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS)
      fs.copyFileSync(replayShot, path.join(repoRoot, 'docs/run-trace-replay.png'));
    expect(consoleErrors).toEqual([]);
  });
});
