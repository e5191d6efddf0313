/// <reference lib="dom" />
// A traced run in the app: a run against the simulator whose spans reach the run's own OTLP
// receiver (the run form's "listen for server traces", same code as run --otlp-listen), reopened
// from the history: the run view shows the server-phases table with the file's numbers, and the
// slowest request's phases drawn under its chunk arrivals with the TTFT decomposition (parts that
// sum to the client's TTFT). Screenshots for docs/tracing.md (UPDATE_DOCS=1).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';
import { runAgainst } from '../electron/testing/runs.ts';
import { startSpanReceiver, type SpanReceiver } from '../electron/runs/server-spans.ts';

let page: Page;
let sim: SimServer;
let receiver: SpanReceiver;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let run: Awaited<ReturnType<typeof runAgainst>>;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  receiver = await startSpanReceiver(0);
  sim = await startSim({
    port: 0,
    seed: 3,
    decodeStepMs: 6,
    prefillMsPerToken: 0.08,
    maxNumSeqs: 3, // a queue forms
    otlpEndpoint: receiver.url,
  });
  run = await runAgainst(
    sim,
    {
      name: 'e2e traced run',
      requests: 24,
      maxConcurrency: 6,
      seed: 2,
      prompts: {
        type: 'synthetic',
        inputLen: { type: 'uniform', min: 64, max: 400 },
        outputLen: { type: 'uniform', min: 8, max: 24 },
      },
    },
    { spans: receiver, spanWaitMs: 10_000, outFile: path.join(app.userData, 'runs', 'traced.jsonl') },
  );
}, 90_000);

afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  await closeApp(app);
});

describe('server phases in the run view', () => {
  it('shows the percentiles table and the slowest request decomposed under its chunks', async () => {
    const sp = run.summary.serverPhases!;
    expect(sp.joined).toBe(24);
    await page.reload();
    await page.getByTestId('runs-tab').click();
    const item = page.locator('[data-testid="run-history"] li', { hasText: 'e2e traced run' });
    await item.waitFor();
    await item.locator('button').first().click();
    const table = page.getByTestId('sum-server-phases');
    await table.waitFor();
    const text = (await table.textContent()) ?? '';
    expect(text).toContain(sp.queueMs!.median!.toFixed(2));
    expect(text).toContain(sp.prefillMs!.p99!.toFixed(2));
    expect(text).toContain(sp.clientTtftMs!.p90!.toFixed(2));
    expect(text).toContain('send');
    const card = page.locator('section[aria-label="Server phases"]');
    await card.scrollIntoViewIfNeeded();
    const bands = page.getByTestId('phase-bands');
    await bands.waitFor();
    // The slowest first token is picked: its parts sum to its client TTFT.
    const slowest = run.lines.filter((l) => !l.warmup).sort((a, b) => b.ttftMs! - a.ttftMs!)[0]!;
    const parts = await page.getByTestId('ttft-parts').locator('tbody tr').allTextContents();
    expect(parts.at(-1)).toContain(slowest.ttftMs!.toFixed(2));
    const nums = parts.slice(0, -1).map((r) => Number(/(-?\d+\.\d+)/.exec(r.replace(/^[^\d-]*/, ''))?.[1]));
    expect(nums.length).toBe(5);
    expect(Math.abs(nums.reduce((a, b) => a + b, 0) - slowest.ttftMs!)).toBeLessThan(0.05);
    expect(await page.locator('[data-testid="phase-bands"] svg rect').count()).toBeGreaterThan(5);
    const tableShot = path.join(
      path.dirname(await shot(page, 'run-server-phases-page')),
      'run-server-phases.png',
    );
    await card.screenshot({ path: tableShot });
    const bandsShot = tableShot.replace('run-server-phases.png', 'request-ttft-decomposed.png');
    await bands.screenshot({ path: bandsShot });
    if (process.env.UPDATE_DOCS) {
      fs.copyFileSync(tableShot, path.join(repoRoot, 'docs/run-server-phases.png'));
      fs.copyFileSync(bandsShot, path.join(repoRoot, 'docs/request-ttft-decomposed.png'));
    }
    expect(consoleErrors).toEqual([]);
  });
});
