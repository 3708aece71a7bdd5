import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { registerByApi, signIn, strongPassword, toastText, uniqueEmail } from './support/flows';

const owner = { email: 'owner@example.com', password: 'Owner-Pass-2024!' };

/** An API key of `email`'s account, made through the API with a fresh access token. */
async function keyFor(server: E2eServer, email: string, password = strongPassword): Promise<string> {
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = ((await login.json()) as { data: { tokens: { accessToken: string } } }).data.tokens.accessToken;
  const made = await fetch(`${server.url}/api/v1/my/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'E2E key', planName: 'free' }),
  });
  return ((await made.json()) as { data: { apiKey: { key: string } } }).data.apiKey.key;
}

const ping = (server: E2eServer, key: string) => fetch(`${server.url}/api/v1/ping`, { headers: { 'x-api-key': key } });

/** Administration in the browser: custom keys with the live preview, plans, maintenance; restricted views. */
describe('administration', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ owner, env: { EMAIL_VERIFICATION: 'false' } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a custom key whose live preview shows an error, then a warning', async () => {
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, owner.email, owner.password);
    await page.goto(`${server.url}/keys`);
    await page
      .getByRole('button', { name: /Create/ })
      .first()
      .click();
    await page.getByLabel('Key name').fill('Partner custom key');
    await page.getByRole('radio', { name: /Custom/ }).check();
    await page.getByText('Admin Only').waitFor();
    const create = page.getByRole('dialog').getByRole('button', { name: 'Create API Key' });
    await expectStatus(page, 'Valid');
    const minute = page.getByLabel('Requests / minute');
    await minute.fill('0');
    await expectStatus(page, 'Invalid');
    await page.getByTestId('preview-error').filter({ hasText: 'Requêtes par minute' }).waitFor();
    expect(await create.isDisabled()).toBe(true);
    await minute.fill('3');
    await page.getByLabel('File size (MB)').fill('200');
    await page.getByTestId('preview-warning').filter({ hasText: 'plus de 100 Mo' }).waitFor();
    await expectStatus(page, 'Valid');
    await page.waitForFunction(() => {
      const b = [...document.querySelectorAll('[role=dialog] button')].find((x) =>
        x.textContent?.includes('Create API Key'),
      );
      return b && !(b as HTMLButtonElement).disabled;
    });
    await create.click();
    const secret = (await page.getByTestId('secret-api-key').textContent())!.trim();
    await toastText(page, 'Clé API personnalisée créée avec succès !');
    // Its limits are enforced: 3 per minute.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ping(server, secret)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    watch.assertClean();
    await context.close();
  });

  it('edits a plan from the plan management page', async () => {
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, owner.email, owner.password);
    await page.goto(`${server.url}/admin/plans`);
    const pro = page.getByTestId('admin-plan-pro');
    await pro.getByRole('button', { name: /Edit/ }).click();
    await page.getByLabel('Description').fill('Edited from the admin page');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await toastText(page, 'Plan mis à jour avec succès !');
    const pub = (await (await fetch(`${server.url}/api/v1/plans/pro`)).json()) as {
      data: { plan: { description: string } };
    };
    expect(pub.data.plan.description).toBe('Edited from the admin page');
    watch.assertClean();
    await context.close();
  });

  it('plain users see the restricted views on the admin pages', async () => {
    const email = uniqueEmail('restricted');
    await registerByApi(server.url, { name: 'Plain User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/admin/plans`);
    await page.getByTestId('plans-restricted').getByText('Accès refusé').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/plans');
    watch.assertClean();
    await context.close();
  });

  for (const [size, viewport] of Object.entries(viewports)) {
    it(`screenshots of the admin pages at ${size} width`, async () => {
      const { page, watch, context } = await newPage(browser, viewport);
      await signIn(page, server.url, owner.email, owner.password);
      await page.goto(`${server.url}/admin/plans`);
      await page.getByTestId('admin-plan-pro').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `admin-plans-${size}`);
      watch.assertClean();
      await context.close();
    });
  }

  it('keeps a processing key answering until maintenance, then 503 for users and not for admins', async () => {
    const email = uniqueEmail('maint');
    await registerByApi(server.url, { name: 'Maint User', email });
    const userKey = await keyFor(server, email);
    const ownerKey = await keyFor(server, owner.email, owner.password);
    expect((await ping(server, userKey)).status).toBe(200);
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(owner),
    });
    const token = ((await login.json()) as { data: { tokens: { accessToken: string } } }).data.tokens.accessToken;
    const set = (enabled: boolean) =>
      fetch(`${server.url}/api/v1/admin/system/maintenance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ enabled, message: 'Maintenance de test' }),
      });
    expect((await set(true)).status).toBe(200);
    const refused = await ping(server, userKey);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('600');
    expect((await ping(server, ownerKey)).status).toBe(200);
    expect((await set(false)).status).toBe(200);
    expect((await ping(server, userKey)).status).toBe(200);
  });
});

async function expectStatus(page: Page, text: 'Valid' | 'Invalid') {
  await page
    .getByTestId('preview-status')
    .filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })
    .waitFor({ timeout: 10_000 });
}
