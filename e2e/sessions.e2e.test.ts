/// <reference lib="dom" />
// A multi-turn run in the app: a run file written by a sessions workload against the simulator
// (its prefix cache on) lands in the runs folder; reopened from the history, the run view shows
// the by-turn table with the file's own numbers, turn 1's TTFT above the later turns'.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import fs from 'node:fs';
import { type OpenApp, closeApp, openApp, repoRoot, shot } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';
import { runAgainst } from '../electron/testing/runs.ts';

let page: Page;
let sim: SimServer;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let run: Awaited<ReturnType<typeof runAgainst>>;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  sim = await startSim({ port: 0, decodeStepMs: 5, decodeStepPerSeqMs: 0, prefillMsPerToken: 0.1 });
  run = await runAgainst(
    sim,
    {
      name: 'e2e multi-turn',
      requests: 8,
      maxConcurrency: 4,
      seed: 2,
      prompts: { type: 'synthetic', inputLen: 40, outputLen: 24 },
      sessions: { turns: 4, thinkTimeMs: { type: 'exponential', meanMs: 40 }, firstInputLen: 1500 },
    },
    { outFile: path.join(app.userData, 'runs', 'multi-turn.jsonl') },
  );
});

afterAll(async () => {
  await sim?.close();
  await closeApp(app);
});

describe('a multi-turn run in the run view', () => {
  it('shows TTFT and E2E by turn from the file', async () => {
    const rows = run.summary.byTurn!;
    expect(rows.map((r) => r.turn)).toEqual([1, 2, 3, 4]);
    await page.reload(); // the history is read from the runs folder when the page loads
    await page.getByTestId('runs-tab').click();
    const item = page.locator('[data-testid="run-history"] li', { hasText: 'e2e multi-turn' });
    await item.waitFor();
    await item.locator('button').first().click();
    const table = page.getByTestId('sum-by-turn');
    await table.waitFor();
    for (const r of rows) {
      const cells = await page.getByTestId(`sum-turn-${r.turn}`).locator('th, td').allTextContents();
      expect(cells[0]).toBe(String(r.turn));
      expect(cells[1]).toBe('8');
      expect(cells[5]).toBe(r.ttft!.median.toFixed(2));
    }
    expect(rows[0]!.ttft!.median).toBeGreaterThan(rows[1]!.ttft!.median);
    await table.scrollIntoViewIfNeeded();
    const byTurn = await shot(page, 'run-by-turn');
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS) fs.copyFileSync(byTurn, path.join(repoRoot, 'docs/run-by-turn.png'));
    expect(consoleErrors).toEqual([]);
  });
});
