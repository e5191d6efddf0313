/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, repoRoot, shot, simModelReady } from './fixtures.ts';
import { startSim, type SimServer } from '../electron/sim/index.ts';

// Load runs end to end: web mode with its embedded simulator, Debian's Chromium. A bounded run
// (60 requests, concurrency 16, 64 output tokens: ~5 s) started from the form; tests wait on the
// app's own attributes (data-phase, data-done), never on sleeps.
const REQUESTS = 60;
let userData: string;
let page: Page;
const consoleErrors: string[] = [];
let app: OpenApp | undefined;
let slow: SimServer | undefined;
let other: SimServer | undefined;

/** The form control with this test id, its folded section opened first. */
async function control(testId: string) {
  const el = page.getByTestId(testId);
  const summary = el.locator('xpath=ancestor::details[not(@open)]/summary');
  if ((await summary.count()) > 0) await summary.first().click();
  return el;
}

async function fill(testId: string, value: string): Promise<void> {
  await (await control(testId)).fill(value);
}

/** Waits until the summary of the run named `name` is shown (the run finished). */
async function summaryOf(name: string): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="run-summary-name"]')?.textContent === n,
    name,
    { timeout: 30_000 },
  );
}

beforeAll(async () => {
  app = await openApp(consoleErrors, { acceptDownloads: true });
  ({ userData, page } = app);
  await page.getByTestId('runs-tab').click();
  // The form's model list comes from the simulator.
  await simModelReady(page, '.run-form');
});

afterAll(async () => {
  await closeApp(app);
  await slow?.close();
  await other?.close();
});

describe('load runs in Chromium', () => {
  it('refuses a bad workload with the path of the problem', async () => {
    await fill('run-requests', '0');
    await page.getByTestId('run-start').click();
    const issues = page.getByTestId('run-issues');
    await issues.waitFor();
    expect(await issues.textContent()).toMatch(/requests/);
    expect(await page.getByTestId('run-requests').getAttribute('aria-invalid')).toBe('true');
  });

  it('runs a workload against the simulator: live dashboard, then the summary', async () => {
    await fill('run-requests', String(REQUESTS));
    await fill('run-concurrency', '16');
    await fill('outputLen-value', '64');
    await fill('run-name', 'e2e simulator run');
    await fill('slo-ttft', '500');
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-dashboard').waitFor();
    // Mid-run: some requests done, not all; the swimlane has drawn lanes; charts had a refresh.
    await page.waitForFunction(
      (n) => {
        const p = document.querySelector('[data-testid="run-progress"]');
        const done = Number(p?.getAttribute('data-done') ?? 0);
        const lanes = Number(
          document.querySelector('[data-testid="run-swimlane"]')?.getAttribute('data-lanes') ?? 0,
        );
        return done >= 20 && done < n && lanes >= 16;
      },
      REQUESTS,
      { timeout: 30_000, polling: 50 },
    );
    expect(await page.getByTestId('run-phase').getAttribute('data-phase')).toMatch(/running|draining/);
    expect(Number(await page.getByTestId('run-inflight').textContent())).toBeGreaterThan(0);
    await shot(page, 'run-live');

    // The end: the summary view of the run, opened from its file.
    await page.getByTestId('run-summary').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('sum-completed').textContent()).toBe(String(REQUESTS));
    expect(await page.getByTestId('sum-failed').textContent()).toBe('0');
    const dur = Number((await page.getByTestId('sum-duration').textContent())?.replace(/[^\d.]/g, ''));
    expect(dur).toBeGreaterThan(0.5);
    const tput = Number(
      (await page.getByTestId('sum-output-throughput').textContent())?.replace(/[^\d.]/g, ''),
    );
    expect(tput).toBeGreaterThan(100);
    expect(await page.getByTestId('sum-goodput').textContent()).toMatch(/\d/);
    const stats = await page.getByTestId('sum-stats').textContent();
    expect(stats).toMatch(/TTFT/);
    expect(stats).not.toMatch(/NaN/);
    expect(await page.getByTestId('sum-token-source').textContent()).toMatch(/exact|estimated/);
    // The server's side of the same run, from the simulator's /metrics watched through it: it
    // generated exactly what the client received, and held at most the 16 requests in flight.
    const gen = (await page.getByTestId('sum-server-gen').textContent()) ?? '';
    const outTokens = (await page.getByTestId('sum-output-tokens').textContent())?.trim() ?? '';
    expect(gen).toMatch(new RegExp(`^${outTokens.replace(/,/g, ',?')} vs ${outTokens} received$`));
    const [running, waiting] = ((await page.getByTestId('sum-server-peaks').textContent()) ?? '')
      .split('/')
      .map((x) => Number(x.trim()));
    expect(running! + waiting!).toBeGreaterThanOrEqual(1);
    expect(running!).toBeLessThanOrEqual(16);
    expect(await page.getByTestId('sum-server-ttft').textContent()).toMatch(/^TTFT60\d/);
    expect(
      await page.getByTestId('sum-server-chart').locator('path.recharts-line-curve').count(),
    ).toBeGreaterThan(1);
    // The swimlane rebuilt from the file has one lane per request.
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="sum-swimlane"]')?.getAttribute('data-requests') === String(n),
      REQUESTS,
    );
    await page.getByTestId('sum-hist-ttft').waitFor();
    const body = await page.locator('main').textContent();
    expect(body).not.toMatch(/NaN|undefined|Infinity/);
    // Tall enough for the whole summary (the main area scrolls inside the window).
    await page.setViewportSize({ width: 1440, height: 2000 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sum-swimlane"]')?.getAttribute('data-lanes') !== null,
    );
    const file = await shot(page, 'run-done');
    await page.getByTestId('sum-server').scrollIntoViewIfNeeded();
    await shot(page, 'run-server-side');
    await page.setViewportSize({ width: 1440, height: 900 });
    // README screenshots are refreshed on request only (UPDATE_DOCS=1), so tests never dirty tracked files.
    if (process.env.UPDATE_DOCS) {
      fs.mkdirSync(path.join(repoRoot, 'docs'), { recursive: true });
      fs.copyFileSync(file, path.join(repoRoot, 'docs/run.png'));
    }
  });

  it('zooms the whole-run swimlane: time around the cursor, lanes with shift, double-click resets', async () => {
    const lane = page.getByTestId('sum-swimlane');
    const canvas = lane.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const lanesBefore = Number(await lane.getAttribute('data-lanes'));
    expect(lanesBefore).toBe(REQUESTS);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    // Lanes: shift+wheel in → fewer lanes drawn, each taller, the axis says which rows.
    await page.keyboard.down('Shift');
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
    await page.keyboard.up('Shift');
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="sum-swimlane"]')?.getAttribute('data-lanes')) < n,
      REQUESTS,
    );
    expect(await canvas.getAttribute('data-zoomed')).toBe('true');
    // Time: wheel in around the cursor → a narrower window (the run is a few seconds long).
    const spanOf = async (): Promise<number> => Number(await lane.getAttribute('data-span-ms'));
    const whole = await spanOf();
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -300);
    await page.waitForFunction(
      (w) =>
        Number(document.querySelector('[data-testid="sum-swimlane"]')?.getAttribute('data-span-ms')) < w / 4,
      whole,
    );
    await shot(page, 'run-swimlane-zoomed');
    await canvas.dblclick();
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="sum-swimlane"]')?.getAttribute('data-lanes')) === n,
      REQUESTS,
    );
    expect(await canvas.getAttribute('data-zoomed')).toBe('false');
    expect(await spanOf()).toBeCloseTo(whole, 3);
  });

  it('lists the run in the history; reopening shows the same numbers; exports download', async () => {
    const item = page.locator('[data-testid="run-history"] li').first();
    await item.waitFor();
    expect(await item.textContent()).toMatch(/e2e simulator run/);
    expect(await item.textContent()).toMatch(new RegExp(`${REQUESTS}\\s*ok`));
    const key = await item.getAttribute('data-run-key');
    // Away and back: the intro, then reopen from the list.
    await page.getByTestId('request-tab').click();
    await page.getByTestId('runs-tab').click();
    await item.locator('button').first().click();
    await page.waitForSelector(`[data-testid="run-summary"][data-run-key="${key}"]`);
    expect(await page.getByTestId('sum-completed').textContent()).toBe(String(REQUESTS));

    // The summary under vLLM's rules, re-derived from the events; back to Tokenscope's.
    await page.getByTestId('run-definitions-select').selectOption('vllm');
    await page.getByTestId('run-definitions-note').waitFor();
    expect(await page.getByTestId('sum-text').textContent()).toMatch(
      /Definitions:\s+vllm \(vLLM bench serve\)/,
    );
    await page.getByTestId('run-definitions-select').selectOption('tokenscope');
    await page.getByTestId('run-export-format').selectOption('vllm');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('run-export').click()]);
    expect(dl.suggestedFilename()).toBe('e2e-simulator-run.vllm.json');
    const saved = path.join(userData, dl.suggestedFilename());
    await dl.saveAs(saved);
    const json = JSON.parse(fs.readFileSync(saved, 'utf8')) as Record<string, unknown>;
    expect(json.completed).toBe(REQUESTS);
    expect(typeof json.mean_ttft_ms).toBe('number');

    // The export re-imported shows as an imported vLLM result with the same count.
    await page.getByTestId('run-import-file').setInputFiles(saved);
    await page.getByTestId('badge-imported').first().waitFor();
    await page.waitForSelector('[data-testid="run-summary"][data-run-key^="imported/"]');
    expect(await page.getByTestId('sum-completed').textContent()).toBe(String(REQUESTS));
  });

  it('compares two runs side by side: numbers against the baseline, overlaid CDFs, workload differences said', async () => {
    // A second run of the same prompts at a quarter of the concurrency.
    await fill('run-requests', '30');
    await fill('run-concurrency', '4');
    await fill('run-name', 'e2e concurrency 4');
    await page.getByTestId('run-start').click();
    await summaryOf('e2e concurrency 4');
    const native = page.locator('[data-testid="run-history"] li:not([data-run-key^="imported/"])');
    expect(await native.count()).toBe(2);
    // Baseline first: the 16-concurrency run (listed second, newest first), then the new one.
    await native.nth(1).getByTestId('run-compare-pick').check();
    await native.nth(0).getByTestId('run-compare-pick').check();
    await page.getByTestId('run-compare-open').click();
    await page.waitForSelector('[data-testid="run-compare"][data-ready="yes"]');
    // The 95 % intervals follow the table (computed in slices, the page stays responsive).
    await page.waitForFunction(() =>
      /^Intervals:/.test(document.querySelector('[data-testid="compare-ci-status"]')?.textContent ?? ''),
    );
    const legend = page.getByTestId('compare-run');
    expect(await legend.nth(0).textContent()).toMatch(/A\s*e2e simulator run/);
    expect(await legend.nth(1).textContent()).toMatch(/B\s*e2e concurrency 4/);
    expect(await page.getByTestId('compare-workload-diff').textContent()).toMatch(
      /requests 60 vs 30.*max concurrency 16 vs 4/,
    );
    const row = (id: string) => page.locator(`[data-testid="compare-table"] tr[data-row="${id}"]`);
    const cells = async (id: string) => (await row(id).locator('td').allTextContents()).map((t) => t.trim());
    expect((await cells('completed')).slice(0, 2)).toEqual([String(REQUESTS), '30']);
    // Four times fewer in flight: the simulator's batch is smaller, so B's TPOT is lower (better)
    // and its output throughput lower (worse). Both are computed, signed and coloured.
    const tput = await cells('out-tput');
    expect(tput[0]).toMatch(/^\d[\d,.]* tok\/s$/);
    expect(tput[2]).toMatch(/^−\d/);
    expect(await row('out-tput').locator('td.compare-rel').getAttribute('data-verdict')).toBe('worse');
    expect(await row('tpot-p50').locator('td.compare-rel').getAttribute('data-verdict')).toMatch(
      /better|same|unclear/,
    );
    // Every client latency change has its interval, and the interval holds the change.
    const ciText = (await row('tpot-p50').getByTestId('compare-ci').textContent()) ?? '';
    const pct = (t: string) => Number(t.replace('−', '-').replace(/[ %+±]/g, ''));
    const ciM = /^\[([−+±][\d.]+ %), ([−+±][\d.]+ %)\]$/.exec(ciText);
    expect(ciM, ciText).not.toBeNull();
    const tpotRel = pct(((await cells('tpot-p50'))[2] ?? '').replace(/\[.*$/, ''));
    expect(pct(ciM![1]!)).toBeLessThanOrEqual(tpotRel + 0.01);
    expect(pct(ciM![2]!)).toBeGreaterThanOrEqual(tpotRel - 0.01);
    // Throughputs have one too (each request resampled with its share of the run's time); nobody
    // failed, so no failure banner.
    expect(await row('out-tput').getByTestId('compare-ci').count()).toBe(1);
    expect(await page.getByTestId('compare-failure-banner').count()).toBe(0);
    // Both runs watched the simulator's /metrics: the server's side is compared too.
    expect((await cells('srv-ttft-p50'))[0]).toMatch(/\d/);
    expect(await row('srv-preempt').count()).toBe(1);
    // Queue time is far below vLLM's first queue bucket (0, 0.3 s] in both (TTFT p50 < 100 ms
    // includes it): shown as that bucket and compared as "same bucket", not as two midpoints.
    expect(await cells('srv-queue-p50')).toEqual(['0–300 ms', '0–300 ms', 'same bucket']);
    expect(await row('srv-queue-p50').locator('td.compare-rel').getAttribute('data-verdict')).toBe('same');
    for (const m of ['ttft', 'tpot', 'itl_per_token', 'e2el']) {
      const lines = (await page.getByTestId(`compare-cdf-${m}`).getAttribute('data-lines')) ?? '';
      const counts = Object.fromEntries(lines.split(',').map((p) => p.split(':') as [string, string]));
      expect(Number(counts.A), m).toBeGreaterThan(1);
      expect(Number(counts.B), m).toBeGreaterThan(1);
      expect(await page.getByTestId(`compare-cdf-${m}`).locator('path.recharts-line-curve').count(), m).toBe(
        2,
      );
    }
    expect(await page.getByTestId('run-compare').textContent()).not.toMatch(/NaN|Infinity|undefined/);
    // The table leaves as CSV for a spreadsheet: the same numbers the table shows.
    const [csvDl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('compare-csv').click(),
    ]);
    expect(csvDl.suggestedFilename()).toBe('comparison.csv');
    const csvPath = path.join(userData, 'comparison.csv');
    await csvDl.saveAs(csvPath);
    const csvLines = fs.readFileSync(csvPath, 'utf8').trimEnd().split('\r\n');
    expect(csvLines[0]).toBe(
      'metric_id,metric,unit,better,change,A,B,B_vs_A,B_ci_low,B_ci_high,B_verdict,B_unreliable,definitions',
    );
    const completedRow = csvLines.find((l) => l.startsWith('completed,'))!.split(',');
    expect(completedRow.slice(5, 7)).toEqual([String(REQUESTS), '30']);
    expect(csvLines.find((l) => l.startsWith('out-tput,'))!.split(',')[10]).toBe('worse');
    const tpotCsv = csvLines.find((l) => l.startsWith('tpot-p50,'))!.split(',');
    expect(Number(tpotCsv[8])).toBeLessThanOrEqual(Number(tpotCsv[9]));
    // And as Markdown to the clipboard (granted here), ready to paste into an issue.
    await app!.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('compare-copy-md').click();
    await page.waitForFunction(() =>
      /Copied the comparison as Markdown/.test(
        document.querySelector('[data-testid="runs-message"]')?.textContent ?? '',
      ),
    );
    const md = await page.evaluate(() => navigator.clipboard.readText());
    expect(md).toMatch(
      /^\| Output token throughput \| [\d.]+ tok\/s \| [\d.]+ tok\/s \| −[\d.]+% \[−[\d.]+%, −[\d.]+%\] \(worse\) \|$/m,
    );
    // Definitions: Tokenscope's by default for two Tokenscope runs; vLLM's on request, both re-derived.
    expect(await page.getByTestId('compare-definitions-select').inputValue()).toBe('tokenscope');
    await page.getByTestId('compare-definitions-select').selectOption('vllm');
    await page.waitForFunction(() =>
      /vLLM bench serve \(vllm\) — A, B re-derived from their events/.test(
        document.querySelector('[data-testid="compare-definitions-line"]')?.textContent ?? '',
      ),
    );
    await page.waitForFunction(() =>
      /^Intervals:/.test(document.querySelector('[data-testid="compare-ci-status"]')?.textContent ?? ''),
    );
    expect(await row('ttft-mean').locator('td').first().textContent()).toMatch(/ms$/);
    await page.getByTestId('compare-definitions-select').selectOption('tokenscope');
    const compareShot = await shot(page, 'run-compare');
    if (process.env.UPDATE_DOCS) fs.copyFileSync(compareShot, path.join(repoRoot, 'docs/run-compare.png'));
    await row('srv-preempt').scrollIntoViewIfNeeded();
    await shot(page, 'run-compare-server');
    await page.getByTestId('compare-cdf-ttft').scrollIntoViewIfNeeded();
    await shot(page, 'run-compare-cdf');
  });

  it('renames and deletes a run', async () => {
    const native = page.locator('[data-testid="run-history"] li:not([data-run-key^="imported/"])').first();
    await native.locator('button').first().click();
    await page.getByTestId('run-rename').click();
    // The field starts from the current name: edit it, not retype it.
    expect(await page.getByTestId('run-rename-input').inputValue()).toMatch(/^e2e /);
    await page.getByTestId('run-rename-input').fill('renamed run');
    await page.getByTestId('run-rename-input').press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-summary-name"]')?.textContent === 'renamed run',
    );
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="run-history"]')?.textContent?.includes('renamed run'),
    );
    await page.getByTestId('run-reveal').click();
    // Web mode cannot open a file manager: it shows the run file's path.
    await page.waitForFunction(() =>
      /\.jsonl/.test(document.querySelector('[data-testid="runs-message"]')?.textContent ?? ''),
    );
    const before = await page.locator('[data-testid="run-history"] li').count();
    await page.getByTestId('run-delete').click();
    await page.getByTestId('run-delete-confirm').click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="run-history"] li').length === n - 1,
      before,
    );
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('a run where the simulator resets a quarter of the streams: failures counted by kind, partial output kept', async () => {
    await fill('run-requests', '40');
    await fill('run-concurrency', '8');
    await fill('outputLen-value', '32');
    await fill('run-name', 'e2e faults');
    // Not JSON (the closing brace missing): refused in the form, at its field.
    await fill('run-extra-body', '{"sim_fault": "reset:10@0.25"');
    await page.getByTestId('run-start').click();
    expect(await page.getByTestId('run-issues').textContent()).toMatch(/extraBody.*not JSON/);
    expect(await page.getByTestId('run-extra-body').getAttribute('aria-invalid')).toBe('true');
    await fill('run-extra-body', '{"sim_fault": "reset:10@0.25"}');
    await page.getByTestId('run-start').click();
    await summaryOf('e2e faults');
    const failed = Number(await page.getByTestId('sum-failed').textContent());
    // About one in four (seeded); certainly some and not all.
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(25);
    const errors = (await page.getByTestId('sum-errors').textContent()) ?? '';
    // The kind, one failed request's own message under it, and the count.
    expect(errors).toMatch(new RegExp(`^(network|protocol)/[a-z-]+.+${failed}$`, 's'));
    expect((await page.getByTestId('sum-error-sample').first().textContent())!.length).toBeGreaterThan(5);
    expect(Number(await page.getByTestId('sum-completed').textContent())).toBe(40 - failed);
    // The server's generation counter includes what the reset streams got before the reset (10
    // tokens each): the client's side counts them too, and says so.
    const gen = (await page.getByTestId('sum-server-gen').textContent()) ?? '';
    const m = /^([\d,]+)\s+vs ([\d,]+) received \(([\d,]+) in failed requests\)$/.exec(gen.trim());
    expect(m, gen).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    expect(Number(m![3]!.replace(/,/g, ''))).toBe(failed * 10);
    await page.getByTestId('sum-errors').scrollIntoViewIfNeeded();
    await shot(page, 'run-faults');
  });

  it('compares the faulty run with a clean one: failure rates bannered, its throughput marked unreliable', async () => {
    const picks = page.getByTestId('run-compare-pick');
    for (let i = 0; i < (await picks.count()); i++)
      if (await picks.nth(i).isChecked()) await picks.nth(i).uncheck();
    const native = page.locator('[data-testid="run-history"] li:not([data-run-key^="imported/"])');
    const clean = native.filter({ hasText: 'e2e simulator run' }).first();
    const faulty = native.filter({ hasText: 'e2e faults' }).first();
    await clean.getByTestId('run-compare-pick').check();
    await faulty.getByTestId('run-compare-pick').check();
    await page.getByTestId('run-compare-open').click();
    await page.waitForSelector('[data-testid="run-compare"][data-ready="yes"]');
    await page.waitForFunction(() =>
      /^Intervals:/.test(document.querySelector('[data-testid="compare-ci-status"]')?.textContent ?? ''),
    );
    const banner = (await page.getByTestId('compare-failure-banner').textContent()) ?? '';
    expect(banner).toMatch(
      new RegExp(
        `^Failure rates: A 0\\.0 % \\(0 of ${REQUESTS}\\) · B [\\d.]+ % \\(\\d+ of 40\\) — B differs clearly from A`,
      ),
    );
    const row = (id: string) => page.locator(`[data-testid="compare-table"] tr[data-row="${id}"]`);
    expect(await row('fail-rate').locator('td.compare-rel').getAttribute('data-verdict')).toBe('worse');
    expect(await row('fail-rate').getByTestId('compare-ci').textContent()).toMatch(
      /^\[\+[\d.]+ pp, \+[\d.]+ pp\]$/,
    );
    expect(await row('out-tput').locator('td.compare-rel').getAttribute('class')).toContain('unreliable');
    expect(await page.getByTestId('run-compare').textContent()).toContain('⚠ the failure rates differ');
    await shot(page, 'run-compare-failures');
  });

  it('runs one workload on two servers in turn, then opens them side by side', async () => {
    // A second server: another simulator whose decode step is three times slower.
    slow = await startSim({ port: 0, decodeStepMs: 60, seed: 2 });
    const saved = await app!.server.core.handlers.saveTarget({
      name: 'slow sim',
      baseUrl: slow.url,
      dialect: 'openai-chat',
    });
    if (!saved.ok) throw new Error(saved.error.message);
    await page.getByTestId('run-also-targets').waitFor({ state: 'attached' });
    await fill('run-extra-body', '');
    await fill('run-requests', '12');
    await fill('run-concurrency', '4');
    await fill('outputLen-value', '16');
    await fill('run-name', 'A/B');
    const also = page.locator('[data-testid="run-also-target"][data-target-id="' + saved.value.id + '"]');
    const summary = also.locator('xpath=ancestor::details[not(@open)]/summary');
    if ((await summary.count()) > 0) await summary.first().click();
    await also.check();
    expect(await page.getByTestId('run-start').textContent()).toBe('Start 2 runs');
    expect(await page.getByTestId('run-against').textContent()).toBe(
      'against Built-in simulator, then slow sim',
    );
    await page.getByTestId('run-start').click();
    // The second run live: the steps say where the sequence stands.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-sequence"] li.now')?.textContent === '2. slow sim',
      undefined,
      { timeout: 30_000 },
    );
    expect(await page.locator('[data-testid="run-sequence"] li.done').textContent()).toBe(
      '1. Built-in simulator',
    );
    await shot(page, 'run-sequence-live');
    await page.waitForSelector('[data-testid="run-compare"][data-ready="yes"]', { timeout: 30_000 });
    const legend = page.getByTestId('compare-run');
    expect(await legend.nth(0).textContent()).toMatch(/A\s*A\/B · Built-in simulator/);
    expect(await legend.nth(1).textContent()).toMatch(/B\s*A\/B · slow sim/);
    // Same workload, same seed: no difference to warn about; the slower server's TPOT is worse.
    expect(await page.getByTestId('compare-workload-diff').count()).toBe(0);
    const tpot = page.locator('[data-testid="compare-table"] tr[data-row="tpot-p50"] td.compare-rel');
    expect(await tpot.getAttribute('data-verdict')).toBe('worse');
    await shot(page, 'run-sequence-compare');
  });

  it('repeats one workload three times, then opens them pooled with the run-to-run spread', async () => {
    // Only the built-in simulator this time.
    const also = page.getByTestId('run-also-target');
    for (let i = 0; i < (await also.count()); i++)
      if (await also.nth(i).isChecked()) await also.nth(i).uncheck();
    await fill('run-requests', '8');
    await fill('run-concurrency', '4');
    await fill('outputLen-value', '16');
    await fill('run-name', 'rep');
    await page.getByTestId('run-repeats').fill('3');
    expect(await page.getByTestId('run-start').textContent()).toBe('Start 3 runs');
    expect(await page.getByTestId('run-against').textContent()).toBe(
      'against Built-in simulator, 3 times each',
    );
    await page.getByTestId('run-start').click();
    // The comparison of the test before may still be on screen for a moment: wait for this one.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="run-compare"][data-ready="yes"] h2')?.textContent ===
        '3 repeats of one workload, pooled',
      undefined,
      { timeout: 60_000 },
    );
    expect(await page.getByTestId('compare-run').count()).toBe(1);
    expect(await page.getByTestId('compare-run').first().textContent()).toMatch(
      /A\s*rep · Built-in simulator \(3 repeats pooled\)/,
    );
    // Pooled: every repeat's requests in one column.
    const completed = page.locator('[data-testid="compare-table"] tr[data-row="completed"] td').first();
    expect(await completed.textContent()).toBe('24');
    // The spread: one column per repeat, then mean, sd and CV.
    const spread = page.getByTestId('compare-spread-A');
    expect(await spread.locator('thead th').allTextContents()).toEqual([
      'A · rep · Built-in simulator (3 repeats pooled)',
      '#1',
      '#2',
      '#3',
      'mean',
      '± sd',
      'CV',
    ]);
    expect(await spread.locator('tr[data-row="tpot-mean"] td').count()).toBe(6);
    await page.getByTestId('compare-spread').scrollIntoViewIfNeeded();
    await shot(page, 'run-repeats-spread');
    await page.getByTestId('run-repeats').fill('1');
  });

  it('switching the form to a target that serves another model takes that model, and back', async () => {
    other = await startSim({ port: 0, decodeStepMs: 5, model: 'other-model' });
    const saved = await app!.server.core.handlers.saveTarget({
      name: 'other model',
      baseUrl: other.url,
      dialect: 'openai-chat',
    });
    if (!saved.ok) throw new Error(saved.error.message);
    const select = page.locator('.run-form [data-testid="model-select"]');
    await page
      .locator(`[data-testid="run-target"] option[value="${saved.value.id}"]`)
      .waitFor({ state: 'attached' });
    await page.getByTestId('run-target').selectOption(saved.value.id);
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('.run-form [data-testid="model-select"]')?.value ===
        'other-model',
    );
    expect(await select.inputValue()).toBe('other-model');
    const builtin = await page.locator('[data-testid="run-target"] option').first().getAttribute('value');
    await page.getByTestId('run-target').selectOption(builtin!);
    await simModelReady(page, '.run-form');
  });

  it("a workload file's target: one of yours is selected; another is said, and can be added from the file", async () => {
    const targets = await app!.server.core.handlers.listTargets();
    if (!targets.ok) throw new Error(targets.error.message);
    const builtin = targets.value.find((t) => t.builtin)!;
    // Another spelling of the simulator's URL (its /v1), with its model.
    const mine = {
      name: 'file on the simulator',
      target: { url: `${builtin.baseUrl.replace(/\/$/, '')}/v1`, model: 'tokenscope-sim' },
      requests: 5,
    };
    // Start from another target when there is one (the previous test added it): the file moves the form.
    const another = targets.value.find((t) => !t.builtin);
    if (another) await page.getByTestId('run-target').selectOption(another.id);
    await page.getByTestId('workload-file').setInputFiles({
      name: 'mine.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(mine)),
    });
    await page.waitForFunction(() =>
      /is your “/.test(document.querySelector('[data-testid="runs-message"]')?.textContent ?? ''),
    );
    expect(await page.getByTestId('runs-message').textContent()).toContain(
      `is your “${builtin.name}”, now selected, model tokenscope-sim`,
    );
    expect(await page.getByTestId('run-target').inputValue()).toBe(builtin.id);
    // Not one of yours: said, with where the run would go, and an offer to add it.
    const foreign = {
      name: 'file elsewhere',
      target: { url: 'http://127.0.0.1:9', dialect: 'openai-completions', model: 'far-model' },
      requests: 5,
    };
    await page.getByTestId('workload-file').setInputFiles({
      name: 'elsewhere.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(
        `name: ${foreign.name}\ntarget: { url: '${foreign.target.url}', dialect: ${foreign.target.dialect}, model: ${foreign.target.model} }\nrequests: 5\n`,
      ),
    });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="runs-message"]')?.getAttribute('data-tone') === 'warn',
    );
    expect(await page.getByTestId('runs-message').textContent()).toContain(
      `Its target http://127.0.0.1:9 (OpenAI completions, model far-model) is not one of your targets: the run would go to “${builtin.name}”.`,
    );
    expect(await page.getByTestId('run-target').inputValue()).toBe(builtin.id);
    await shot(page, 'run-workload-foreign-target');
    await page.getByTestId('runs-add-file-target').click();
    expect(await page.getByTestId('target-url').inputValue()).toBe('http://127.0.0.1:9');
    expect(await page.getByTestId('target-name').inputValue()).toBe('127.0.0.1:9');
    await page.getByTestId('target-save').click();
    await page.waitForFunction(() =>
      /now runs on “127\.0\.0\.1:9”/.test(
        document.querySelector('[data-testid="runs-message"]')?.textContent ?? '',
      ),
    );
    const chosen = await page.getByTestId('run-target').inputValue();
    expect(chosen).not.toBe(builtin.id);
    expect(await page.locator(`[data-testid="run-target"] option[value="${chosen}"]`).textContent()).toBe(
      '127.0.0.1:9',
    );
    await page.getByTestId('run-target').selectOption(builtin.id);
    await simModelReady(page, '.run-form');
  });

  it('a model the server does not serve: the test request stops the run, the form says why; unticked, the run fails whole', async () => {
    await fill('run-requests', '3');
    await fill('run-name', 'e2e wrong model');
    await page
      .locator('.run-form [data-testid="model-select"]')
      .selectOption({ label: 'other (type a name)…' });
    await page.locator('.run-form [data-testid="model-input"]').fill('no-such-model');
    await page.getByTestId('run-start').click();
    await page.waitForFunction(
      () =>
        /test request failed/.test(document.querySelector('[data-testid="run-issues"]')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    const issues = (await page.getByTestId('run-issues').textContent()) ?? '';
    expect(issues).toMatch(/The test request failed, so the run did not start: HTTP 404: .*no-such-model/);
    expect(issues).toMatch(/untick “send one test request first”/);
    // The form is back (no live run, no run in the history under that name).
    await page.getByTestId('run-start').waitFor();
    expect(await page.locator('[data-testid="run-history"] li', { hasText: 'e2e wrong model' }).count()).toBe(
      0,
    );
    await page.getByTestId('run-issues').scrollIntoViewIfNeeded();
    await shot(page, 'run-test-request-failed');
    // Unticked: the run starts and every request fails with the server's 404.
    await (await control('run-test-request')).uncheck();
    await page.getByTestId('run-start').click();
    await summaryOf('e2e wrong model');
    expect(await page.getByTestId('sum-failed').textContent()).toBe('3');
    expect(await page.getByTestId('sum-errors').textContent()).toMatch(/http\/status.*404/s);
    await (await control('run-test-request')).check();
    await page.locator('.run-form [data-testid="model-select"]').selectOption('tokenscope-sim');
  });
});
