/// <reference lib="dom" />
// The request debugger for embeddings and rerank, as a user drives it: a target added at web
// mode's built-in simulator with the openai-embeddings (then the rerank) dialect; the composer
// offers the batch of inputs (the query, documents and top_n) in place of messages, max tokens and
// sampling; Send; the view shows the request's phases, sizes, the server's usage and the result —
// each vector's dimension, norm and first values; the ranked documents with their scores — and no
// token timeline, ITL histogram, chunk chart, output or TTFT/ITL numbers. Copy as curl writes the
// endpoint's body; a too-long input comes back as the server's 400, classified; two requests
// compare without lanes. Screenshots for docs/app.md (UPDATE_DOCS=1): docs/debugger-embeddings.png,
// docs/debugger-rerank.png.
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

/** Every mark of a token stream the request view could show. */
const STREAM_WORDS =
  /TTFT|ITL|TPOT|Token timeline|Tokens per chunk|Output tokens|Chunks|Raw frames|streaming/i;

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

async function addTarget(name: string, dialect: DialectId): Promise<void> {
  await page.getByTestId('target-add').click();
  await page.getByTestId('target-name').fill(name);
  await page.getByTestId('target-url').fill(simUrl);
  await page.locator('#te-dialect').selectOption(dialect);
  await page.getByTestId('target-save').click();
  await page.getByTestId('target-save').waitFor({ state: 'detached' });
  await simModelReady(page);
}

/** Fill the composer's boxes (inputs or documents), adding boxes as needed. */
async function fillInputs(texts: string[]): Promise<void> {
  const boxes = page.getByTestId('pooling-inputs').locator('textarea');
  while ((await boxes.count()) < texts.length) await page.getByTestId('pooling-add').click();
  while ((await boxes.count()) > texts.length)
    await page
      .getByRole('button', { name: /^Remove / })
      .last()
      .click();
  for (const [i, t] of texts.entries()) await boxes.nth(i).fill(t);
}

async function sendAndWait(state: 'done' | 'error'): Promise<void> {
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(
    (s) => document.querySelector('[data-testid="request-state"]')?.textContent === s,
    state,
    { timeout: 20_000 },
  );
}

/** The composer from its top (target, dialect, model), as a user sees it before scrolling. */
const showComposerTop = () =>
  page
    .getByRole('region', { name: 'Request composer' })
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));

const viewText = () => page.getByTestId('pooling-view').evaluate((el) => (el as HTMLElement).innerText);
const rowsOf = (id: string) =>
  page
    .getByTestId(id)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText));

describe('the request debugger for embeddings and rerank', () => {
  it('embeddings: the batch in the composer; phases, usage and each vector readable in the view', async () => {
    await addTarget('Embeddings (simulator)', 'openai-embeddings');
    await page.getByTestId('pooling-fields').waitFor();
    for (const id of ['max-tokens', 'temperature', 'include-usage'])
      expect(await page.getByTestId(id).count(), id).toBe(0);
    await fillInputs([
      'How fast does the first token arrive?',
      'Prefix caching skips prefill for a prompt the server has seen.',
      'Embeddings map a text to a vector.',
      'A rerank model scores documents against a query.',
      'Batching shares the fixed cost of a forward pass.',
      'The norm of a normalized vector is one.',
    ]);
    await sendAndWait('done');
    const rows = await rowsOf('embeddings-table');
    expect(rows.length).toBe(6);
    for (const r of rows) expect(r).toMatch(/^\d\t384\t1\.0000\t\[(-?\d\.\d{4}, ){8}… 376 more\]$/);
    expect(await page.getByTestId('pooling-batch').textContent()).toBe('6 → 6');
    // Six different texts: 1 on the diagonal only.
    const sim = await rowsOf('similarity-matrix');
    expect(sim.length).toBe(6);
    sim.forEach((r, i) => {
      const cells = r.split('\t').slice(1).map(Number);
      expect(cells[i]).toBe(1);
      expect(cells.filter((v) => v > 0.5).length).toBe(1);
    });
    expect(Number(await page.getByTestId('pooling-prompt-tokens').textContent())).toBeGreaterThan(20);
    expect(await page.getByTestId('pooling-e2e').textContent()).toMatch(/^\d+\.\d\d ms$/);
    expect(await page.getByTestId('pooling-waterfall').locator('.wf-row').count()).toBe(4);
    const text = await viewText();
    expect(text).not.toMatch(STREAM_WORDS);
    expect(text).not.toMatch(/NaN|undefined/);
    expect(await page.locator('.request-view canvas').count()).toBe(0);
    // The raw body is behind its toggle: 6 × 384 floats are more than the 16 KiB kept.
    expect(await page.getByTestId('pooling-raw').isVisible()).toBe(false);
    expect(await page.getByTestId('pooling-raw-toggle').textContent()).toMatch(/KiB, its start shown\)$/);
    await showComposerTop();
    const file = await shot(page, 'debugger-embeddings');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/debugger-embeddings.png'));
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it("embeddings: an input past the model's length is the server's 400, classified with its body", async () => {
    await fillInputs(['word '.repeat(9000)]);
    await sendAndWait('error');
    expect(await page.getByTestId('error-kind').textContent()).toBe('http');
    expect(await page.getByTestId('error-body').textContent()).toMatch(
      /maximum context length is 8192 tokens/,
    );
    expect(await page.getByTestId('error-partial').count()).toBe(0);
    expect(await viewText()).not.toMatch(STREAM_WORDS);
  }, 60_000);

  it('two embeddings requests compare without lanes: phases, sizes and usage side by side', async () => {
    await fillInputs(['one short input']);
    await sendAndWait('done');
    await page
      .locator('[data-testid="history-item"][data-state="done"]')
      .nth(1)
      .getByTestId('history-compare')
      .click();
    await page.getByTestId('compare-view').waitFor();
    const compare = page.getByTestId('compare-view');
    expect(await compare.getByTestId('compare-canvas').count()).toBe(0);
    const rows = await compare
      .locator('tbody tr')
      .evaluateAll((rs) => rs.map((r) => (r as HTMLElement).innerText));
    expect(rows.some((r) => /^Inputs\t1\t6\t\+5/.test(r))).toBe(true);
    expect(rows.some((r) => r.startsWith('E2E\t'))).toBe(true);
    expect(await compare.innerText()).not.toMatch(/TTFT|ITL|TPOT|Chunks/);
    await compare.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  it('rerank: query, documents and top_n; the ranked documents with scores; curl with the same body', async () => {
    await addTarget('Rerank (simulator)', 'rerank');
    await page.getByTestId('prompt').fill('Where can I see the Mona Lisa?');
    const docs = [
      'The Louvre in Paris shows the Mona Lisa.',
      'Bananas are rich in potassium.',
      'Leonardo da Vinci painted the Mona Lisa in the early 16th century.',
      'The Eiffel Tower is 330 metres tall.',
      'Ice melts at zero degrees Celsius.',
    ];
    await fillInputs(docs);
    await page.getByTestId('top-n').fill('3');
    await sendAndWait('done');
    const rows = await rowsOf('rerank-table');
    expect(rows.length).toBe(3);
    const parsed = rows.map((r) => r.split('\t'));
    expect(parsed.map((c) => c[0])).toEqual(['1', '2', '3']);
    const scores = parsed.map((c) => Number(c[2]));
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    for (const c of parsed) expect(c[3]).toBe(docs[Number(c[1])]);
    expect(await page.getByTestId('pooling-batch').textContent()).toBe('5 → 3');
    expect(await viewText()).not.toMatch(STREAM_WORDS);
    await showComposerTop();
    const file = await shot(page, 'debugger-rerank');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(file, path.join(repoRoot, 'docs/debugger-rerank.png'));
    // Copy as curl: what the button puts on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('composer-curl').click();
    await page.getByText('Copied ✓').waitFor();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl.split(' ')[0]).toBe('curl');
    expect(curl).toContain(`'${simUrl}/v1/rerank'`);
    expect(curl).not.toContain(' -N');
    const body = JSON.parse(curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'"))) as Record<
      string,
      unknown
    >;
    expect(body).toEqual({
      model: 'tokenscope-sim',
      query: 'Where can I see the Mona Lisa?',
      documents: docs,
      top_n: 3,
    });
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
