/// <reference lib="dom" />
// Embeddings and rerank from the app, as a user does it: a target added in the target editor at
// web mode's built-in simulator with the openai-embeddings (then the rerank) dialect, the run
// form's batch fields (inputs per request; documents per query, top N) in place of the token
// stream's, a load run each; the run view then shows latency, request and input-token throughput
// and batch sizes — and no TTFT, ITL or TPOT row, chart or legend entry — with the simulator's
// own /metrics (which count pooling requests as vLLM does) beside them.
// Screenshot for docs/app.md (UPDATE_DOCS=1): docs/embeddings-summary.png.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import { dispatch } from '../electron/app/handlers.ts';
import type { TargetView } from '../shared/api.ts';
import type { DialectId } from '../shared/dialects.ts';
import type { Result } from '../shared/result.ts';

let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let simUrl = '';

/** Every mark of token timing or generated output the run view could show. */
const TOKEN_WORDS =
  /TTFT|ITL|TPOT|Inter-token|first token|token event|generating|Output token|Generated tokens/i;

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  const targets = (await dispatch(app.server.core.handlers, 'listTargets', [])) as Result<TargetView[]>;
  if (!targets.ok) throw new Error(targets.error.message);
  simUrl = targets.value.find((t) => t.builtin)!.baseUrl;
  await simModelReady(page);
}, 60_000);

afterAll(async () => {
  await closeApp(app);
});

/** The target editor, as a user fills it: name, the built-in simulator's URL, the dialect. */
async function addTarget(name: string, dialect: DialectId): Promise<void> {
  await page.getByTestId('request-tab').click();
  await page.getByTestId('target-add').click();
  await page.getByTestId('target-name').fill(name);
  await page.getByTestId('target-url').fill(simUrl);
  await page.locator('#te-dialect').selectOption(dialect);
  await page.getByTestId('target-save').click();
  await page.getByTestId('target-save').waitFor({ state: 'detached' });
}

/** The run form against `target`: requests, concurrency, input length, name, then `batch` fills its batch fields. */
async function runFromForm(target: string, name: string, batch: () => Promise<void>): Promise<void> {
  await page.getByTestId('runs-tab').click();
  await page.getByTestId('run-target').selectOption({ label: target });
  await simModelReady(page, '.run-form');
  await page.getByTestId('run-pooling').waitFor();
  await page.getByTestId('run-requests').fill('48');
  await page.getByTestId('run-concurrency').fill('8');
  await page.getByTestId('inputLen-value').fill('64');
  await page.getByTestId('run-name').fill(name);
  await batch();
  await page.getByTestId('run-start').click();
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="run-summary-name"]')?.textContent === n,
    name,
    { timeout: 90_000 },
  );
  await page.getByTestId('sum-batch-size').waitFor();
}

const text = async (id: string) => (await page.getByTestId(id).textContent()) ?? '';
const statRows = () =>
  page
    .getByTestId('sum-stats')
    .locator('tr[data-metric]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-metric')));

/** What both runs' views must show, and must not. */
async function expectBatchView(): Promise<void> {
  expect(await text('sum-completed')).toBe('48');
  expect(await text('sum-failed')).toBe('0');
  expect(await text('sum-req-throughput')).toMatch(/^\d+\.\d\d req\/s$/);
  expect(await text('sum-input-tput')).toMatch(/^[\d.]+ tok\/s$/);
  expect(await statRows()).toEqual(['e2el', 'client_queue_time']);
  for (const id of [
    'sum-output-throughput',
    'sum-peak-tput',
    'sum-tok-chart',
    'sum-hist-ttft',
    'sum-server-ttft',
  ])
    expect(await page.getByTestId(id).count(), id).toBe(0);
  // The server's own E2E (the simulator counts pooling requests as vLLM does) beside the client's.
  const srvE2e = await page.getByTestId('sum-server-e2e').locator('td').allTextContents();
  expect(srvE2e[0]).toBe('48');
  const view = (await page.getByTestId('run-summary').evaluate((el) => (el as HTMLElement).innerText)) ?? '';
  expect(view).not.toMatch(TOKEN_WORDS);
  expect(view).not.toMatch(/NaN|undefined/);
}

describe('embeddings and rerank runs from the app', () => {
  // Rerank first: the embeddings run, whose view is the docs' screenshot, then runs on a warm client.
  it('a rerank run: 16 documents per query, the best 4; the same view, no dimension', async () => {
    await addTarget('Rerank (simulator)', 'rerank');
    await runFromForm('Rerank (simulator)', 'e2e rerank', async () => {
      await page.getByTestId('run-pool-documents').fill('16');
      await page.getByTestId('run-pool-top-n').fill('4');
    });
    await expectBatchView();
    expect(await text('sum-batch-size')).toBe('16.00 / 16 / 16');
    expect(await page.getByTestId('sum-embedding-dim').count()).toBe(0);
    await page.getByTestId('run-summary').evaluate((el) => el.scrollIntoView());
    await shot(page, 'rerank-summary');
    expect(consoleErrors).toEqual([]);
  }, 180_000);
  it('an embeddings run: batches of 8 inputs; latency, throughputs, batch sizes, no token timing', async () => {
    await addTarget('Embeddings (simulator)', 'openai-embeddings');
    await runFromForm('Embeddings (simulator)', 'e2e embeddings', async () => {
      await page.getByTestId('run-pool-batch-size').fill('8');
    });
    await expectBatchView();
    expect(await text('sum-batch-size')).toBe('8.00 / 8 / 8');
    expect(await text('sum-batch-inputs')).toBe('384');
    expect(await text('sum-embedding-dim')).toBe('384');
    await page.getByTestId('run-summary').evaluate((el) => el.scrollIntoView());
    const file = await shot(page, 'embeddings-summary');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/embeddings-summary.png'));
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
