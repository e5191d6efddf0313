/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { spawn } from 'node:child_process';
import { closeApp, launch, repoRoot, shot, simModelReady, startApp } from './fixtures.ts';
import type { WebServer } from '../electron/serve.ts';

// Web mode's door: a page without (or with a stale) token is told so and can paste the right
// one; an import far past the socket's 8 MiB message limit goes over the HTTP upload.
let server: WebServer;
let userData: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
let bigFile = '';

beforeAll(async () => {
  ({ server, userData } = await startApp());
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('console', (m) => {
    // The refused socket and the session check's 401/403 are expected network errors here.
    if (m.type() === 'error' && !/WebSocket|401|403|Failed to load resource/.test(m.text()))
      consoleErrors.push(m.text());
  });
});

afterAll(async () => {
  await closeApp({ server, userData, browser });
  if (bigFile) fs.rmSync(path.dirname(bigFile), { recursive: true, force: true });
});

/** A vLLM `--save-detailed` result of n requests (~300 bytes each). */
function writeDetailed(n: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-e2e-import-'));
  const file = path.join(dir, 'vllm-detailed-big.json');
  const text = 'the quick brown fox jumps over the lazy dog '.repeat(5);
  fs.writeFileSync(
    file,
    JSON.stringify({
      date: '20261124-101500',
      backend: 'openai-chat',
      label: 'big detailed import',
      model_id: 'm',
      num_prompts: n,
      request_rate: 'inf',
      burstiness: 1.0,
      max_concurrency: 256,
      duration: n / 200,
      completed: n,
      failed: 0,
      total_input_tokens: 16 * n,
      total_output_tokens: 4 * n,
      request_throughput: 200,
      output_throughput: 800,
      total_token_throughput: 4000,
      input_lens: Array.from({ length: n }, () => 16),
      output_lens: Array.from({ length: n }, () => 4),
      ttfts: Array.from({ length: n }, (_, i) => 0.04 + (i % 50) / 1000),
      itls: Array.from({ length: n }, () => [0.01, 0.012, 0.011]),
      latencies: Array.from({ length: n }, () => 0.09),
      start_times: Array.from({ length: n }, (_, i) => 5000 + i / 200),
      generated_texts: Array.from({ length: n }, () => text),
      errors: Array.from({ length: n }, () => ''),
    }),
  );
  return file;
}

describe('web mode access', () => {
  it('`tokenscope serve` (what `npm start` falls back to) prints an address that opens the app', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-e2e-serve-'));
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'bin/tokenscope.mjs'), 'serve', '--port', '0'],
      {
        cwd: repoRoot,
        env: { ...process.env, TOKENSCOPE_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const printed = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no address printed: ${out}`)), 30_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (/Ctrl-C to stop/.test(out)) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
      });
      const url = /Open: (\S+)/.exec(printed)?.[1] ?? '';
      // The token is printed whole (the CLI's secret filter must not mask the one address to open).
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
      expect(printed).toMatch(/Built-in simulator: http:\/\/127\.0\.0\.1:\d+/);
      const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await p.goto(url);
      await simModelReady(p);
      expect(await p.getByTestId('token-banner').count()).toBe(0);
      await p.close();
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a page without its token says so and takes a pasted one; a wrong one is refused again', async () => {
    await page.goto(server.url); // no ?token=
    const banner = page.getByTestId('token-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/no access token/);
    await shot(page, 'web-token-missing');

    await page.getByTestId('token-input').fill('not-the-token');
    await banner.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('token-banner').filter({ hasText: 'refused this page' }).waitFor();

    await page.getByTestId('token-input').fill(server.token);
    await page.getByTestId('token-banner').getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('token-banner').waitFor({ state: 'detached' });
    await simModelReady(page);
    // The token is kept for reloads of this tab, and stays out of the address bar.
    await page.reload();
    await simModelReady(page);
    expect(page.url()).not.toContain('token');
  });

  it(
    'imports a detailed result larger than a socket message, and opens it',
    { timeout: 120_000 },
    async () => {
      bigFile = writeDetailed(40_000);
      expect(fs.statSync(bigFile).size).toBeGreaterThan(9 * 1024 * 1024);
      await page.getByTestId('runs-tab').click();
      await page.getByTestId('run-import-file').setInputFiles(bigFile);
      await page.waitForSelector('[data-testid="run-summary"][data-run-key^="imported/"]', {
        timeout: 90_000,
      });
      expect(await page.getByTestId('sum-completed').textContent()).toBe('40,000');
      await shot(page, 'web-big-import');
      expect(consoleErrors).toEqual([]);
    },
  );
});
