/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { type OpenApp, closeApp, openApp, shot } from './fixtures.ts';

// Run files are a trust boundary: users share them and edit them. A file whose summary line is
// malformed must not blank the app: it is listed as damaged with the reason, and opens with the
// summary recomputed from its request lines.
let app: OpenApp | undefined;
const consoleErrors: string[] = [];
const REQUESTS = 6;

async function waitUntil(pred: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  app = await openApp(consoleErrors);
  const core = app.server.core;
  const targets = await core.handlers.listTargets();
  if (!targets.ok) throw new Error(targets.error.message);
  const sim = targets.value.find((t) => t.builtin)!;
  const started = await core.handlers.startRun({
    targetId: sim.id,
    name: 'sound run',
    workload: {
      requests: REQUESTS,
      maxConcurrency: 3,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: 6 },
    },
    serverMetrics: false,
  });
  if (!started.ok) throw new Error(started.error.message);
  await waitUntil(async () =>
    (await core.runs.list()).runs.some((r) => !r.running && r.completed === REQUESTS),
  );
  const file = path.join(core.runs.dir, started.value.key);
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const body = lines.slice(0, -1);
  const summary = JSON.parse(lines.at(-1)!) as { summary: { vllm: Record<string, unknown> } };
  // The two damaged files the issue names: an empty vllm object, and string values.
  const header = (name: string): string => body[0]!.replace('"name":"sound run"', `"name":"${name}"`);
  fs.writeFileSync(
    path.join(core.runs.dir, '20990101-000000-aaaaaa.jsonl'),
    [header('empty vllm'), ...body.slice(1), '{"type":"summary","summary":{"vllm":{}}}'].join('\n') + '\n',
  );
  summary.summary.vllm.completed = 'lots';
  summary.summary.vllm.mean_ttft_ms = 'fast';
  fs.writeFileSync(
    path.join(core.runs.dir, '20990101-000001-bbbbbb.jsonl'),
    [header('string values'), ...body.slice(1), JSON.stringify(summary)].join('\n') + '\n',
  );
  // The files were added behind the app's back (as a shared file copied into the folder): a
  // reload lists the folder afresh.
  await app.page.reload();
  await app.page.getByTestId('runs-tab').click();
});

afterAll(async () => {
  await closeApp(app);
});

describe('damaged run files', () => {
  it('are listed as damaged with the reason, and the app keeps working', async () => {
    const page = app!.page;
    await page.getByTestId('run-history').waitFor();
    await page.locator('[data-testid="badge-damaged"]').nth(1).waitFor();
    expect(await page.locator('[data-testid="badge-damaged"]').count()).toBe(2);
    const title = await page.locator('[data-testid="badge-damaged"]').first().getAttribute('title');
    expect(title).toMatch(/damaged: its summary line is malformed \(\w+/);
    // The sound run is listed as it was.
    expect(await page.locator('[data-testid="run-history"] li').count()).toBe(3);
  });

  it('open with the summary recomputed from their request lines, the damage said', async () => {
    const page = app!.page;
    for (const name of ['string values', 'empty vllm']) {
      await page.locator('[data-testid="run-history"] li', { hasText: name }).first().click();
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="run-summary-name"]')?.textContent === n,
        name,
      );
      expect(await page.getByTestId('run-damage').textContent()).toMatch(
        /damaged: its summary line is malformed/,
      );
      expect(await page.getByTestId('sum-completed').textContent()).toBe(String(REQUESTS));
      expect(await page.getByTestId('panel-failed').count()).toBe(0);
    }
    await shot(page, 'runs-damaged');
    expect(consoleErrors).toEqual([]);
  });
});
