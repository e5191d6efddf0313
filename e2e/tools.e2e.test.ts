/// <reference lib="dom" />
// Tool calls and agentic sessions in the app, as a user does it: the run form's tool-calling
// prompts (the built-in dataset), tool_choice and agentic sessions (a steps cap, a uniform tool
// latency), run against web mode's embedded simulator (which answers a seeded share of requests
// with a tool call, streamed as vLLM streams it). A bad steps cap is refused on its field first.
// The run view's tool-call card then shows the calls, their checks and the tool-call times; the
// agentic card the sessions and where their time went; the by-step table TTFT and E2E per step —
// the same numbers as the run's text summary (what `tokenscope run` prints).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';

let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;

const SESSIONS = 8;
const STEPS = 3;

/** The form control, its folded section opened first. */
async function control(testId: string) {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  return el;
}

/** The text of a summary cell, and its number. */
const text = async (testId: string) => (await page.getByTestId(testId).textContent()) ?? '';
const number = (s: string) => Number(s.replace(/[,%\s]/g, ''));
const cells = async (testId: string) => page.getByTestId(testId).locator('th, td').allTextContents();

beforeAll(async () => {
  // Short steps so that a session of up to three requests takes about a second.
  app = await openApp(consoleErrors, { sim: { decodeStepMs: 5, decodeStepPerSeqMs: 0 } });
  page = app.page;
  await page.getByTestId('runs-tab').click();
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
});

describe('tool calls and agentic sessions from the run form', () => {
  it('refuses a bad steps cap on its field, runs the sessions, and shows the tool-call numbers', async () => {
    await (await control('run-requests')).fill(String(SESSIONS));
    await (await control('run-concurrency')).fill('4');
    await (await control('run-name')).fill('e2e tools agentic');
    const source = page.getByLabel('Prompt source', { exact: true });
    const prompts = source.locator('xpath=ancestor::details[not(@open)]/summary');
    if ((await prompts.count()) > 0) await prompts.first().click();
    await source.selectOption('tools');
    await expect(page.getByTestId('run-tool-dataset').inputValue()).resolves.toBe('builtin');
    await page.getByLabel('Output tokens (files)', { exact: true }).fill('48');
    // The tool section opens with the tool-calling prompts.
    await page.getByTestId('run-tool-choice').selectOption('auto');
    await page.getByTestId('run-agentic').check();
    await page.getByTestId('run-agentic-steps').fill('65');
    await page.getByTestId('run-tool-latency').selectOption('uniform');
    await page.getByTestId('run-tool-latency-min').fill('40');
    await page.getByTestId('run-tool-latency-max').fill('120');

    // Over the cap: not started, the message under the field and its path in the list.
    await page.getByTestId('run-start').click();
    const issues = page.getByTestId('run-issues');
    await issues.waitFor();
    expect(await issues.textContent()).toContain('tools.agentic.maxSteps');
    const steps = page.getByTestId('run-agentic-steps');
    expect(await steps.getAttribute('aria-invalid')).toBe('true');
    const stepsField = steps.locator('xpath=ancestor::*[contains(@class,"field")][1]');
    expect(await stepsField.locator('.field-error').textContent()).toMatch(/at most 64 steps/);
    await steps.fill(String(STEPS));
    await issues.waitFor({ state: 'detached' });
    expect(await steps.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByTestId('run-agentic-no-tools').count()).toBe(0);

    // The prompt source at the top and the whole tool section under it: a taller page for this one.
    await page.setViewportSize({ width: 1440, height: 1180 });
    await source.evaluate((el) => el.closest('.field-pair')!.scrollIntoView({ block: 'start' }));
    const form = await shot(page, 'tools-run-form');
    await page.setViewportSize({ width: 1440, height: 900 });
    // README screenshots are refreshed on request only (UPDATE_DOCS=1).
    if (process.env.UPDATE_DOCS) fs.copyFileSync(form, path.join(repoRoot, 'docs/tools-run-form.png'));

    await page.getByTestId('run-start').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-summary-name"]')?.textContent === 'e2e tools agentic',
      undefined,
      { timeout: 90_000 },
    );
    const card = page.getByRole('region', { name: 'Tool calls' });
    await card.waitFor();

    // Calls: the simulator finishes each with tool_calls and streams valid JSON for the schema.
    const calls = number(await text('sum-tools-calls'));
    expect(calls).toBeGreaterThan(0);
    expect(number(await text('sum-tools-finish'))).toBe(calls);
    expect(await text('sum-tools-failure-rate')).toBe('0.0 %');
    expect(await text('sum-tools-errors')).toBe('0');
    const ttft = await cells('sum-tools-ttft');
    expect(ttft[0]).toBe('first tool-call token');
    expect(number(ttft[1]!)).toBeGreaterThan(0);
    expect(number(ttft[5]!)).toBe(calls);
    const itl = await cells('sum-tools-itl');
    expect(number(itl[5]!)).toBeGreaterThan(0);

    // Sessions: one per request, each of 1 to STEPS steps; time split three ways.
    expect(number(await text('sum-agentic-sessions'))).toBe(SESSIONS);
    const stepCount = number(await text('sum-agentic-steps'));
    expect(stepCount).toBeGreaterThanOrEqual(SESSIONS);
    expect(stepCount).toBeLessThanOrEqual(SESSIONS * STEPS);
    // Every step but a session's first follows a call: calls = steps − sessions + sessions still calling at the end.
    expect(calls).toBeGreaterThanOrEqual(stepCount - SESSIONS);
    const shares = await Promise.all(
      ['server', 'tools', 'other'].map(async (k) =>
        number(/([\d.]+) %$/.exec(await text(`sum-agentic-share-${k}`))![1]!),
      ),
    );
    expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(0.2);
    // Some time waited on tools: 40–120 ms before each later step. (The simulator calls a tool for
    // 80 % of answers, drawn per request: a session that ends after one step waited 0, so only the
    // longest wait is sure to hold one.)
    expect(shares[1]).toBeGreaterThan(0);
    expect(number((await cells('sum-agentic-tools'))[4]!)).toBeGreaterThanOrEqual(40);

    // By step: step 1 is every session's, later steps fewer.
    const byStep = page.getByRole('region', { name: 'Latency by step' });
    await byStep.waitFor();
    const step1 = await cells('sum-turn-1');
    expect(step1[1]).toBe(String(SESSIONS));

    // The text summary (what the CLI prints) says the same.
    const sumText = (await page.getByTestId('sum-text').textContent()) ?? '';
    expect(sumText).toMatch(new RegExp(`Tool calls:\\s+${calls} \\(finish reason tool_calls: ${calls}\\)`));
    expect(sumText).toMatch(
      new RegExp(`Sessions / steps:\\s+${SESSIONS} / ${stepCount} \\(at most ${STEPS} steps\\)`),
    );

    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const summary = await shot(page, 'tools-summary');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(summary, path.join(repoRoot, 'docs/tools-summary.png'));
    expect(consoleErrors).toEqual([]);
  });

  it('your own JSONL: a bad line is refused on the path field, with its line number', async () => {
    const file = path.join(app!.userData, 'my-tools.jsonl');
    const tool = { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } };
    fs.writeFileSync(
      file,
      [
        JSON.stringify({ prompt: 'Look up Oslo.', tools: [tool] }),
        JSON.stringify({ prompt: 'Either.', tools: [{ name: 'either', parameters: { oneOf: [] } }] }),
      ].join('\n'),
    );
    await page.getByTestId('run-tool-dataset').selectOption('file');
    const input = page.getByTestId('run-tool-path');
    await input.fill(file);
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-issues').waitFor();
    expect(await page.getByTestId('run-issues').textContent()).toContain('prompts.path');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    const error = await input
      .locator('xpath=ancestor::*[contains(@class,"field")][1]')
      .locator('.field-error')
      .textContent();
    expect(error).toMatch(/line 2: .*oneOf/);
    expect(consoleErrors).toEqual([]);
  });
});
