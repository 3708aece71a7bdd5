import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { apiClient } from './support/api';
import { signIn, verifiedUser, strongPassword, toastText } from './support/flows';

/**
 * Issue 4 in the browser: start a trial on the Plans page, create a key and copy it, call the API with it, see the
 * call in Analytics, regenerate, disable and delete the key; the admin's real global figures; screenshots at desktop
 * and phone widths in e2e/artifacts/.
 */

async function ping(server: E2eServer, apiKey: string): Promise<number> {
  return (await apiClient(server.url, { apiKey }).api.GET('/api/v1/ping')).response.status;
}

/** Navigate inside the app (a client-side link click, as a user would), then wait for the page's heading. */
async function go(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => u.pathname === path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** Reload until `check` holds: usage is metered in batches (about every second). */
async function eventually(page: Page, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await page.waitForTimeout(700);
    await page.reload();
  }
}

/** A full-page screenshot from the top (the shell's sticky header and fixed sidebar stay in place). */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function keyMenu(page: Page, keyName: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${keyName}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('plans, API keys and analytics in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const owner = { email: 'owner@example.com', password: strongPassword, name: 'Olive Owner' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ owner }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts a trial, creates, copies, uses, regenerates, disables and deletes a key', async () => {
    const email = await verifiedUser(server, 'Grace Hopper', 'keys');
    const { page, watch, context } = await newPage(browser, viewports.desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page, server.url, email);

    // Dashboard: the welcome banner with the plan badge.
    await page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor();
    expect(await page.getByTestId('dashboard-plan-badge').textContent()).toBe('Free');

    // Plans: start the Pro trial; the badges change.
    await go(page, '/plans', 'Choose Your Plan');
    const badge = page.getByTestId('current-plan-badge');
    await page.getByTestId('plans-grid').waitFor();
    expect(await badge.textContent()).toBe('Free');
    const pro = page.getByRole('article', { name: 'Pro' });
    await pro.getByText('Most Popular').waitFor();
    await pro.getByRole('button', { name: 'Upgrade Now' }).click();
    await page
      .getByRole('dialog', { name: 'Start the Pro trial?' })
      .getByRole('button', { name: 'Start the trial' })
      .click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="current-plan-badge"]')?.textContent === 'Pro +1',
    );
    expect(await pro.getByTestId('plan-status-badge').textContent()).toBe('Primary Plan');
    expect(await pro.getByRole('button', { name: 'Active Plan' }).isDisabled()).toBe(true);
    expect(await page.getByRole('article', { name: 'Free' }).getByTestId('plan-status-badge').textContent()).toBe(
      'Active Plan',
    );
    await page.getByText(/Free trial · 14 days left/).waitFor();
    await shot(page, 'plans-desktop');

    // Keys: the empty state, then the create modal.
    await go(page, '/keys', 'API Keys');
    await page.getByText('No API keys found').waitFor();
    await page.getByRole('button', { name: 'Create your first API key' }).click();
    const modal = page.getByRole('dialog', { name: 'Create API Key' });
    const create = modal.getByRole('button', { name: 'Create API Key' });
    expect(await create.isDisabled()).toBe(true);
    expect(await modal.getByRole('radio', { name: 'Development' }).isChecked()).toBe(true);
    // Pro is owned now (the trial), so it is the default; Enterprise is not owned.
    expect(await modal.getByRole('radio', { name: 'Pro', exact: true }).isChecked()).toBe(true);
    expect(await modal.getByRole('radio', { name: 'Enterprise', exact: true }).isDisabled()).toBe(true);
    await modal.getByLabel('Key name').fill('Invoice service');
    await modal.getByRole('radio', { name: 'Production' }).check();
    await shot(page, 'keys-create-desktop');
    await create.click();

    const created = page.getByRole('dialog', { name: 'API key created' });
    const secret = (await created.getByTestId('secret-api-key').textContent())!.trim();
    expect(secret).toMatch(/^dfk_/);
    await toastText(page, 'API key created successfully!');
    await created.getByRole('button', { name: 'Copy API key' }).click();
    await toastText(page, 'API key copied to the clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'keys-created-desktop');
    await created.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('article', { name: 'Invoice service' });
    await card.waitFor();
    expect(await card.getByText('Production').count()).toBe(1);
    expect(await card.getByText('Never', { exact: true }).count()).toBe(1);
    // The prefix and the secret's last four: what tells this key from the others.
    const masked = (await card.getByLabel(`Key ending in ${secret.slice(-4)}`).textContent())!;
    expect(masked.startsWith(secret.slice(0, 8))).toBe(true);
    expect(masked.endsWith(secret.slice(-4))).toBe(true);

    // The key works against the real API; its calls reach the key card and Analytics.
    for (let i = 0; i < 3; i += 1) expect(await ping(server, secret)).toBe(200);
    await eventually(page, async () => /\b3 \/ 100,000/.test(await card.innerText()));
    await shot(page, 'keys-desktop');

    await go(page, '/analytics', 'Analytics');
    const row = page.getByTestId('key-activity-row').filter({ hasText: 'Invoice service' });
    await eventually(page, async () => {
      await page.getByRole('region', { name: 'API key activity' }).waitFor();
      return (await row.count()) === 1 && /\b3\b/.test(await row.innerText());
    });
    expect(await row.getByText('Excellent').count()).toBe(1);
    expect(await row.getByText('100%').count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('region', { name: 'Top endpoints' }).getByText('/ping').waitFor();
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForFunction(() => document.querySelector('[aria-pressed="true"]')?.textContent === '7 days');
    await row.waitFor();
    await shot(page, 'analytics-desktop');

    // Phone widths: the same account in a second browser context.
    const phone = await newPage(browser, viewports.phone);
    await signIn(phone.page, server.url, email);
    await phone.page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor();
    await phone.page.getByTestId('dashboard-plan-badge').filter({ hasText: 'Pro +1' }).waitFor();
    await shot(phone.page, 'dashboard-usage-phone');
    await go(phone.page, '/keys', 'API Keys');
    await phone.page.getByRole('article', { name: 'Invoice service' }).waitFor();
    await shot(phone.page, 'keys-phone');
    await phone.page.getByRole('button', { name: 'Create API Key' }).click();
    await phone.page
      .getByRole('dialog', { name: 'Create API Key' })
      .getByRole('radio', { name: 'Pro', exact: true })
      .waitFor();
    await screenshot(phone.page, 'keys-create-phone');
    await phone.page.keyboard.press('Escape');
    await go(phone.page, '/analytics', 'Analytics');
    await phone.page.getByTestId('key-activity-row').first().waitFor();
    await shot(phone.page, 'analytics-phone');
    await go(phone.page, '/plans', 'Choose Your Plan');
    await phone.page.getByTestId('plans-grid').waitFor();
    await shot(phone.page, 'plans-phone');
    phone.watch.assertClean();
    await phone.context.close();

    // The dashboard shows the real figures.
    await go(page, '/dashboard', /Welcome back/);
    await page.getByRole('region', { name: 'Welcome' }).getByText('3', { exact: true }).first().waitFor();
    await page.getByRole('region', { name: 'Plan details' }).waitFor();
    await shot(page, 'dashboard-usage-desktop');

    // Regenerate: the confirmation lists the effects, then the French dialog shows the new key.
    await go(page, '/keys', 'API Keys');
    await keyMenu(page, 'Invoice service', 'Regenerate');
    const confirm = page.getByRole('dialog', { name: 'Regenerate API key?' });
    expect(await confirm.getByRole('listitem').count()).toBe(5);
    await confirm.getByRole('button', { name: 'Regenerate key' }).click();
    const regenerated = page.getByRole('dialog', { name: 'API key regenerated' });
    await regenerated.getByText('Newly generated').waitFor();
    const fresh = (await regenerated.getByTestId('secret-api-key').textContent())!.trim();
    expect(fresh).not.toBe(secret);
    await toastText(page, 'API key regenerated successfully!');
    await shot(page, 'keys-regenerated-desktop');
    await regenerated.getByRole('button', { name: 'I have copied the key' }).click();
    expect(await ping(server, secret)).toBe(401);
    expect(await ping(server, fresh)).toBe(200);
    // Usage moved with the key.
    await eventually(page, async () => /\b4 \/ 100,000/.test(await card.innerText()));

    // Disable: the key stops working.
    await keyMenu(page, 'Invoice service', 'Disable');
    await toastText(page, 'API key disabled successfully!');
    await card.getByText('Inactive').waitFor();
    expect(await ping(server, fresh)).not.toBe(200);

    // Delete, after the browser's confirmation.
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await keyMenu(page, 'Invoice service', 'Delete');
    await toastText(page, 'API key deleted successfully!');
    expect(asked).toBe('Are you sure you want to delete this API key? This action cannot be undone.');
    await page.getByText('No API keys found').waitFor();
    expect(await ping(server, fresh)).toBe(401);

    watch.assertClean();
    await context.close();
  });

  it('shows an admin the real global figures', async () => {
    const { page, watch, context } = await newPage(browser, viewports.desktop);
    await signIn(page, server.url, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Welcome back, Olive!' }).waitFor();
    const [users] = await server.sql<{ n: number }>('select count(*)::int as n from users');
    const totalUsers = page.getByTestId('stat-card').filter({ hasText: 'Total Users' });
    await totalUsers.getByText(String(users!.n), { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Plan details' }).count()).toBe(0);
    await shot(page, 'dashboard-admin-desktop');

    await go(page, '/analytics', 'Analytics');
    const overview = page.getByRole('region', { name: 'System Overview' });
    await overview.getByText('Healthy').waitFor();
    await overview.getByText('0 days').waitFor();
    await overview.getByText(String(users!.n), { exact: true }).waitFor();
    await shot(page, 'analytics-admin-desktop');
    watch.assertClean();
    await context.close();
  });
});
