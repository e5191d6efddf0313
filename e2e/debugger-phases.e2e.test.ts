/// <reference lib="dom" />
// The request debugger's own timeline, inside the server: a request sent from the composer to the
// built-in simulator, which exports its spans to the app's own loopback receiver; once the span
// comes, the request view shows the server's phases under the chunk arrivals and the TTFT
// decomposed, each part measured or derived, the parts summing to the client's TTFT. Screenshot
// for docs/tracing.md (UPDATE_DOCS=1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type OpenApp, closeApp, openApp, simModelReady } from './fixtures.ts';
import { artifactsDir, repoRoot } from './fixtures.ts';
import path from 'node:path';
import fs from 'node:fs';

let page: Page;
let app: OpenApp | undefined;
const consoleErrors: string[] = [];

beforeAll(async () => {
  app = await openApp(consoleErrors);
  page = app.page;
  await simModelReady(page);
}, 60_000);

afterAll(async () => {
  await closeApp(app);
});

describe('server phases in the request debugger', () => {
  it("draws a composer request's server phases under its chunks, with its TTFT decomposed", async () => {
    await page.getByTestId('composer-send').click();
    const card = page.getByTestId('request-server-phases');
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    await expect(card.getByTestId('phase-bands').locator('svg rect').count()).resolves.toBeGreaterThan(4);
    const rows = await card.getByTestId('ttft-parts').locator('tbody tr').allInnerTexts();
    const parts = rows.slice(0, -1).map((r) => Number(r.split('\t')[1]));
    const total = Number(rows.at(-1)!.split('\t')[1]);
    expect(rows.length).toBe(6); // send, pre-queue, queue, prefill, return, and the client TTFT
    expect(rows.join('\n')).toMatch(/measured: the server's span/);
    expect(rows.join('\n')).toMatch(/derived: span start − client send \(shared clock\)/);
    // Each part is shown to 2 decimals: their sum is the TTFT within the rounding.
    expect(Math.abs(parts.reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(0.03);
    await card.scrollIntoViewIfNeeded();
    fs.mkdirSync(artifactsDir, { recursive: true });
    const file = path.join(artifactsDir, 'debugger-server-phases.png');
    await card.screenshot({ path: file });
    if (process.env.UPDATE_DOCS)
      fs.copyFileSync(file, path.join(repoRoot, 'docs/debugger-server-phases.png'));
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
