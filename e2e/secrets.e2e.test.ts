/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenApp, closeApp, openApp, shot } from './fixtures.ts';

// Secrets in the target editor: a header marked secret is stored like the API key (its value never
// comes back to the page), Copy as curl redacts it, and moving the target to another server asks
// whether its key goes along before saving.
let app: OpenApp | undefined;
const consoleErrors: string[] = [];
const SECRET = 'sess-e2e-abcdef123';
const KEY = 'sk-e2e-key-987654';

beforeAll(async () => {
  app = await openApp(consoleErrors);
  await app.page.getByTestId('target-add').waitFor();
});

afterAll(async () => {
  await closeApp(app);
});

describe('target secrets in the UI', () => {
  it('a secret header is kept write-only and redacted from Copy as curl', async () => {
    const page = app!.page;
    await page.getByTestId('target-add').click();
    await page.getByTestId('target-name').fill('team gpu');
    await page.getByTestId('target-url').fill(app!.server.core.sim!.url);
    await page.getByTestId('target-api-key').fill(KEY);
    await page.locator('#target-add-header').click();
    await page.getByLabel('Header 1 name').fill('X-Session-Id');
    await page.getByLabel('Header 1 value').fill(SECRET);
    await page.getByTestId('header-secret').first().check();
    await page.locator('#target-add-header').click();
    await page.getByLabel('Header 2 name').fill('X-Team');
    await page.getByLabel('Header 2 value').fill('infra');
    // On a short window the tall dialog scrolls its fields; Save stays in view.
    await page.setViewportSize({ width: 1440, height: 560 });
    const box = await page.getByTestId('target-save').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(560);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('target-save').click();
    await page.getByTestId('target-save').waitFor({ state: 'detached' });
    // Nothing the page holds about targets carries the secret or the key.
    const list = await app!.server.core.handlers.listTargets();
    expect(JSON.stringify(list)).not.toContain(SECRET);
    expect(JSON.stringify(list)).not.toContain(KEY);
    expect(await page.content()).not.toContain(SECRET);
    // Copy as curl (what the button copies): the secret header is redacted, the plain one is not.
    const t = list.ok ? list.value.find((x) => x.name === 'team gpu') : undefined;
    expect(t?.secretHeaderNames).toEqual(['X-Session-Id']);
    const curl = await app!.server.core.handlers.curlFor({
      targetId: t!.id,
      model: 'tokenscope-sim',
      prompt: 'hi',
    });
    const text = curl.ok ? curl.value.command : '';
    expect(text).toContain('X-Session-Id: <redacted>');
    expect(text).toContain('X-Team: infra');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(KEY);
  });

  it('moving the target to another server asks whether the key goes along', async () => {
    const page = app!.page;
    await page.getByRole('button', { name: 'Edit target' }).click();
    // The stored secret comes back as a row without its value.
    expect(await page.getByLabel('Header 2 value').getAttribute('placeholder')).toMatch(/secret stored/);
    expect(await page.getByLabel('Header 2 value').inputValue()).toBe('');
    await page.getByTestId('target-url').fill('https://other-server.example:8443');
    await page.getByTestId('target-key-move').waitFor();
    await page.getByTestId('target-save').click();
    await page
      .getByTestId('target-key-move')
      .getByText(/keep the stored API key for it, or remove it/)
      .waitFor();
    await shot(page, 'target-secret-headers');
    await page.getByTestId('target-key-move-drop').check();
    await page.getByTestId('target-save').click();
    await page.getByTestId('target-save').waitFor({ state: 'detached' });
    const list = await app!.server.core.handlers.listTargets();
    const t = list.ok ? list.value.find((x) => x.name === 'team gpu') : undefined;
    expect(t?.baseUrl).toBe('https://other-server.example:8443');
    expect(t?.hasApiKey).toBe(false);
    expect(t?.secretHeaderNames).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
