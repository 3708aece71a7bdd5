import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { accessTokenOf, apiClient, dataOf } from './support/api';
import { registerByApi, signIn, strongPassword, toastText, uniqueEmail } from './support/flows';

const owner = { email: 'owner@example.com', password: 'Owner-Pass-2024!' };

/** An API key of `email`'s account, made through the API with a fresh access token. */
async function keyFor(server: E2eServer, email: string, password = strongPassword): Promise<string> {
  const accessToken = await accessTokenOf(server.url, email, password);
  const made = await apiClient(server.url, { accessToken }).api.POST('/api/v1/my/api-keys', {
    body: { name: 'E2E key', planName: 'free' },
  });
  return dataOf(made, 'create key').apiKey.key!;
}

/** A processing call with the key: its status, headers and error body (the client has read the body). */
async function ping(server: E2eServer, apiKey: string) {
  const { response, error } = await apiClient(server.url, { apiKey }).api.GET('/api/v1/ping');
  return { status: response.status, headers: response.headers, error };
}

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
    // The server's preview speaks the interface's language (English here).
    await page.getByTestId('preview-error').filter({ hasText: 'Requests per minute' }).waitFor();
    expect(await create.isDisabled()).toBe(true);
    await minute.fill('3');
    await page.getByLabel('File size (MB)').fill('200');
    await page.getByTestId('preview-warning').filter({ hasText: 'more than 100 MB' }).waitFor();
    await expectStatus(page, 'Valid');
    await page.waitForFunction(() => {
      const b = [...document.querySelectorAll('[role=dialog] button')].find((x) =>
        x.textContent?.includes('Create API Key'),
      );
      return b && !(b as HTMLButtonElement).disabled;
    });
    await create.click();
    const secret = (await page.getByTestId('secret-api-key').textContent())!.trim();
    await toastText(page, 'Custom API key created successfully!');
    // Its limits are enforced: 3 per minute.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ping(server, secret)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    watch.assertClean();
    await context.close();
  });

  it('searches and filters users, creates one who signs in with the temporary password, deactivates and deletes', async () => {
    for (const name of ['Zoe Searchable', 'Yan Searchable'])
      await registerByApi(server.url, { name, email: uniqueEmail(name.split(' ')[0]!.toLowerCase()) });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, owner.email, owner.password);
    await page.goto(`${server.url}/admin/users`);
    await page.getByTestId('user-row').first().waitFor();
    await page.getByLabel('Search users').fill('searchable');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=user-row]').length === 2);
    await page.getByLabel('Source').selectOption('admin');
    await page.getByTestId('users-empty').waitFor();
    await page.getByLabel('Source').selectOption('api');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=user-row]').length === 2);
    await page.getByLabel('Search users').fill('');
    await page.getByLabel('Source').selectOption('all');

    // Create: the temporary password is shown once.
    const email = uniqueEmail('made');
    await page.getByRole('button', { name: 'Add User' }).click();
    const form = page.getByTestId('user-form-dialog');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Name').fill('Made By Admin');
    await form.getByRole('button', { name: 'Create' }).click();
    const temp = (await page.getByTestId('temp-password').textContent())!.trim();
    await toastText(page, 'User created successfully!');
    await form.getByRole('button', { name: 'Done' }).click();
    const row = page.locator(`[data-testid=user-row][data-email="${email}"]`);
    await row.waitFor();
    expect(await row.getByTestId('user-status').textContent()).toContain('Active');

    // The new user signs in with it and must choose a password first.
    const second = await newPage(browser);
    await second.page.goto(`${server.url}/login`);
    await second.page.getByLabel('Email address').fill(email);
    await second.page.getByLabel('Password', { exact: true }).fill(temp);
    await second.page.getByRole('button', { name: 'Sign In' }).click();
    await second.page.waitForURL(/\/change-password$/);
    await second.page.getByTestId('temporary-password-notice').waitFor();
    await second.page.getByLabel('Current password').fill(temp);
    await second.page.getByLabel('New password', { exact: true }).fill('Quiet-Harbour-77');
    await second.page.getByLabel('Confirm new password').fill('Quiet-Harbour-77');
    await second.page.getByRole('button', { name: /Update password|Change password/ }).click();
    await second.page.waitForURL(/\/dashboard$/);
    await second.page.getByTestId('shell-title').waitFor();
    second.watch.assertClean();
    await second.context.close();

    // Deactivate: confirmation in the spec's words.
    await page.getByRole('button', { name: 'Deactivate Made By Admin' }).click();
    await page
      .getByTestId('confirm-dialog')
      .getByText('Are you sure you want to deactivate "Made By Admin"?')
      .waitFor();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Deactivate' }).click();
    await toastText(page, 'User deactivated successfully!');
    await row.getByTestId('user-status').filter({ hasText: 'Inactive' }).waitFor();

    // Delete.
    await page.getByRole('button', { name: 'Delete Made By Admin' }).click();
    await page
      .getByTestId('confirm-dialog')
      .getByText('Are you sure you want to delete "Made By Admin"? This action cannot be undone.')
      .waitFor();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await toastText(page, 'User deleted successfully (0 API keys deleted)');
    await row.waitFor({ state: 'detached' });
    // All of it is in the audit log, with who did it.
    await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Audit Log' }).click();
    for (const action of ['admin.user.delete', 'admin.user.deactivate', 'admin.user.create'])
      await page.getByTestId('audit-row').filter({ hasText: action }).filter({ hasText: email }).first().waitFor();
    expect(await page.getByTestId('audit-row').first().textContent()).toContain(owner.email);
    watch.assertClean();
    await context.close();
  });

  it('watches the monitor refresh, switches tabs, and switches maintenance on: a processing call gets 503', async () => {
    const email = uniqueEmail('maint-user');
    await registerByApi(server.url, { name: 'Maint Viewer', email });
    const userKey = await keyFor(server, email);
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, owner.email, owner.password);
    await page.goto(`${server.url}/admin/monitor`);
    await page
      .getByTestId('monitor-status')
      .filter({ hasText: /healthy|degraded|error/ })
      .waitFor();
    // Auto-refresh: realtime figures are asked for again within 5 s.
    const realtime = page.waitForResponse((r) => r.url().endsWith('/api/v1/admin/system/realtime'), {
      timeout: 12_000,
    });
    await realtime;
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/admin/system/metrics/refresh'));
    await page.getByRole('button', { name: 'Refresh Now' }).click();
    expect((await refreshed).status()).toBe(200);
    await page.getByRole('tab', { name: 'Services' }).click();
    await page.getByTestId('service-card-database').waitFor();
    await page.getByTestId('service-card-qpdf').waitFor();
    await page.getByLabel('Search services').fill('data');
    await page.getByTestId('service-card-qpdf').waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Metrics' }).click();
    await page.getByTestId('memory-bar').waitFor();
    await page.getByRole('tab', { name: /Alerts/ }).click();
    await page.getByTestId('alert-thresholds').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();

    await page.getByLabel('Maintenance message').fill('Maintenance de test');
    await page.getByTestId('maintenance-toggle').click();
    await toastText(page, 'Maintenance mode enabled');
    await page.getByTestId('maintenance-banner').filter({ hasText: 'Maintenance de test' }).waitFor();
    const refused = await ping(server, userKey);
    expect(refused.status).toBe(503);
    expect(refused.error?.code).toBe('MAINTENANCE');
    await page.getByTestId('maintenance-toggle').filter({ hasText: 'End maintenance' }).click();
    await toastText(page, 'Maintenance mode disabled');
    expect((await ping(server, userKey)).status).toBe(200);
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
    await toastText(page, 'Plan updated successfully!');
    const pub = await apiClient(server.url).api.GET('/api/v1/plans/{name}', { params: { path: { name: 'pro' } } });
    expect(dataOf(pub, 'plan pro').plan.description).toBe('Edited from the admin page');
    watch.assertClean();
    await context.close();
  });

  it('plain users see the restricted views on the admin pages', async () => {
    const email = uniqueEmail('restricted');
    await registerByApi(server.url, { name: 'Plain User', email });
    const { page, watch, context } = await newPage(browser);
    await signIn(page, server.url, email);
    await page.goto(`${server.url}/admin/plans`);
    await page.getByTestId('plans-restricted').getByText('Access denied').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/plans');
    await page.goto(`${server.url}/admin/users`);
    await page.getByTestId('users-restricted').getByText('Access denied').waitFor();
    expect(await page.getByTestId('users-restricted').textContent()).toContain('admin, super_admin, owner');
    await page.goto(`${server.url}/admin/monitor`);
    await page.getByTestId('monitor-restricted').getByText('Access Restricted').waitFor();
    expect(await page.getByTestId('monitor-restricted').textContent()).toContain('user');
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
      await page.goto(`${server.url}/admin/users`);
      await page.getByTestId('user-row').first().waitFor();
      await screenshot(page, `admin-users-${size}`);
      await page.getByRole('button', { name: 'Add User' }).click();
      await page.getByTestId('user-form-dialog').waitFor();
      await screenshot(page, `admin-users-create-${size}`);
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/admin/system-monitor`);
      await page
        .getByTestId('monitor-status')
        .filter({ hasText: /healthy|degraded|error/ })
        .waitFor();
      await screenshot(page, `admin-monitor-${size}`);
      for (const tab of ['Services', 'Metrics', 'Alerts']) {
        await page.getByRole('tab', { name: new RegExp(tab) }).click();
        await screenshot(page, `admin-monitor-${tab.toLowerCase()}-${size}`);
      }
      await page.goto(`${server.url}/admin/audit`);
      await page.getByTestId('audit-row').first().waitFor();
      await screenshot(page, `admin-audit-${size}`);
      await page.goto(`${server.url}/keys`);
      await page
        .getByRole('button', { name: /Create/ })
        .first()
        .click();
      await page.getByRole('radio', { name: /Custom/ }).check();
      await page.getByTestId('preview-status').waitFor();
      await screenshot(page, `admin-custom-key-${size}`);
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
    const admin = apiClient(server.url, { accessToken: await accessTokenOf(server.url, owner.email, owner.password) });
    const set = async (enabled: boolean) =>
      (
        await admin.api.POST('/api/v1/admin/system/maintenance', {
          body: { enabled, message: 'Maintenance de test' },
        })
      ).response;
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
    .waitFor();
}
