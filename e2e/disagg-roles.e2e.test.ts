/// <reference lib="dom" />
// A disaggregated deployment run from the app: a target listing the simulator's prefill and decode
// metrics endpoints with their roles (its --disagg mode, SGLang's prefill/decode metrics), a run
// started through the app's own contract (as the run form does), the page reloaded mid-run and the
// run clicked in the list: when it ends, its summary shows each role's queues and KV-transfer time,
// the transfer count the simulator's own.
// Screenshot for docs/metrics.md (UPDATE_DOCS=1).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';
import { dispatch } from '../electron/app/handlers.ts';
import type { Result } from '../shared/result.ts';
import type { RunList } from '../shared/runs-api.ts';

let page: Page;
let sim: SimServer;
let app: OpenApp | undefined;
const consoleErrors: string[] = [];

function call<T>(method: string, ...args: unknown[]): Promise<Result<T>> {
  return dispatch(app!.server.core.handlers, method, args) as Promise<Result<T>>;
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  sim = await startSim({ port: 0, decodeStepMs: 40, maxNumSeqs: 4, kvTransferMs: 40, seed: 4 });
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await closeApp(app);
});

describe('a disaggregated deployment in the run view', () => {
  it("shows each role's queues and KV-transfer time", async () => {
    const saved = await call<{ id: string }>('saveTarget', {
      name: 'disagg sim',
      baseUrl: sim.url,
      dialect: 'openai-chat',
      metricsEndpoints: [
        { role: 'prefill', url: `${sim.url}/metrics/prefill` },
        { role: 'decode', url: `${sim.url}/metrics/decode` },
      ],
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const started = await call<{ runId: string; key: string }>('startRun', {
      targetId: saved.value.id,
      workload: {
        name: 'e2e disaggregated run',
        requests: 16,
        maxConcurrency: 8,
        seed: 2,
        prompts: { type: 'synthetic', inputLen: 64, outputLen: 48 },
      },
    });
    expect(started.ok, started.ok ? '' : started.error.message).toBe(true);
    if (!started.ok) return;
    // Reloaded once the run has started (its test request passed): the page missed the run's
    // start and learns the live run's file from the list.
    for (let t = Date.now(); Date.now() - t < 30_000; await new Promise((r) => setTimeout(r, 100))) {
      const l = await call<RunList>('listRuns');
      if (l.ok && l.value.runs.some((r) => r.key === started.value.key && r.running)) break;
    }
    await page.reload();
    await page.getByTestId('runs-tab').click();
    const item = page.locator('[data-testid="run-history"] li', { hasText: 'e2e disaggregated run' });
    await item.waitFor({ timeout: 60_000 });
    // Clicked while it runs (~8 s: four waves of two-second streams): the live view, then the
    // whole run's summary when it ends.
    expect(await item.textContent()).toContain('running');
    await item.locator('button').first().click();
    await page.getByTestId('run-dashboard').waitFor({ timeout: 10_000 });
    const roles = page.getByTestId('sum-roles');
    await roles.waitFor({ timeout: 30_000 });
    const head = await roles.locator('thead th').allTextContents();
    expect(head.join(' ')).toMatch(/prefill[\s\S]*decode/);
    const kv = (await roles.getByTestId('sum-role-kv-transfer').textContent()) ?? '';
    // Every measured request's transfer, on both sides (the simulator also ran the run's test request).
    expect(sim.state().disagg!.transfers).toBe(17);
    expect(kv.match(/16 transfers/g)?.length).toBe(2);
    expect(await roles.locator('[data-testid^="sum-role-queue-"]').count()).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1900, height: 900 }); // three role columns side by side
    await roles.scrollIntoViewIfNeeded();
    const file = path.join(path.dirname(await shot(page, 'disagg-roles-page')), 'disagg-roles.png');
    await roles.screenshot({ path: file });
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/disagg-roles.png'));
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
