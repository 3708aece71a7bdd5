import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { accessTokenOf, apiClient } from './support/api';
import { signIn, strongPassword, toastText, verifiedUser } from './support/flows';

/**
 * Issue 29 without Stripe, in the browser: a customer whose Pro trial is spent clicks "Upgrade Now" and sends a
 * request; the owner grants it on the admin Requests page; the customer's /plans then shows Pro with its end date.
 * Support's "Send Message" stores a message the admin marks handled, and the customer sees the answer.
 */

/** Navigate inside the app (a client-side route change), then wait for the page's heading. */
async function go(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => u.pathname === path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('plan requests and support messages without a payment provider', () => {
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

  it('a customer requests Pro, an admin grants it, the customer is on Pro', async () => {
    const email = await verifiedUser(server, 'Ada Lovelace', 'requests');
    // The customer's Pro trial was used and has ended: "Upgrade Now" used to be a dead end.
    const token = await accessTokenOf(server.url, email, strongPassword);
    const trial = await apiClient(server.url, { accessToken: token }).api.POST('/api/v1/my/subscriptions', {
      body: { planName: 'pro' },
    });
    expect(trial.response.status).toBe(201);
    await server.sql(
      `UPDATE subscriptions SET expires_at = now() - interval '1 day'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );

    const customer = await newPage(browser);
    await signIn(customer.page, server.url, email);
    await go(customer.page, '/plans', 'Choose Your Plan');
    await customer.page.getByTestId('plans-grid').waitFor();
    expect(await customer.page.getByTestId('current-plan-badge').textContent()).toBe('Free');

    // "Contact Sales" opens the request dialog too (on the largest plan); closed without sending.
    await customer.page.getByRole('button', { name: 'Contact Sales' }).click();
    const sales = customer.page.getByRole('dialog', { name: 'Request a plan' });
    expect(await sales.getByLabel('Plan').inputValue()).toBe('enterprise');
    await sales.getByRole('button', { name: 'Cancel' }).click();
    await sales.waitFor({ state: 'detached' });

    const pro = customer.page.getByRole('article', { name: 'Pro' });
    await pro.getByRole('button', { name: 'Upgrade Now' }).click();
    const dialog = customer.page.getByRole('dialog', { name: 'Request a plan' });
    expect(await dialog.getByLabel('Plan').inputValue()).toBe('pro');
    await dialog.getByLabel('Billing period').selectOption('yearly');
    await dialog.getByLabel(/Message/).fill('About 20,000 invoices a month.');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await toastText(customer.page, 'Your request for the Pro plan was sent to the administrators.');
    const state = customer.page.getByTestId('plan-request');
    await state.getByText('Waiting for an answer').waitFor();
    await screenshot(customer.page, 'plan-request-pending');

    // The owner sees it on the Requests page (nav item in the admin area) and grants Pro for a year.
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, owner.email, owner.password);
    await admin.page.getByRole('link', { name: 'Customer requests', exact: true }).click();
    await admin.page.getByRole('heading', { name: 'Customer requests', level: 1 }).waitFor();
    const row = admin.page.getByTestId('admin-plan-request').filter({ hasText: email });
    await row.getByText('About 20,000 invoices a month.').waitFor();
    expect(await row.getByText('Pro · yearly').count()).toBe(1);
    await row.getByRole('button', { name: 'Grant' }).click();
    const grant = admin.page.getByRole('dialog', { name: 'Grant a plan' });
    expect(await grant.getByLabel('Plan').inputValue()).toBe('pro');
    expect(await grant.getByLabel('Period').inputValue()).toBe('yearly');
    await grant.getByLabel(/Note to the customer/).fill('Welcome to Pro!');
    await grant.getByRole('button', { name: 'Grant' }).click();
    await toastText(admin.page, 'Plan granted.');
    await admin.page.getByLabel('Show').first().selectOption('granted');
    await admin.page.getByTestId('admin-plan-request').filter({ hasText: email }).getByText('Granted').waitFor();

    // The customer's plans page now shows Pro, held for a year, and the request granted with the admin's note.
    await customer.page.reload();
    await customer.page.getByTestId('plans-grid').waitFor();
    await customer.page.waitForFunction(() =>
      document.querySelector('[data-testid="current-plan-badge"]')?.textContent?.startsWith('Pro'),
    );
    expect(await pro.getByRole('button', { name: 'Active Plan' }).isDisabled()).toBe(true);
    await state.getByText('Granted', { exact: true }).waitFor();
    // The end date shown is the one the server granted (a year from the grant), as the page formats dates.
    const mine = await apiClient(server.url, { accessToken: token }).api.GET('/api/v1/my/plan-requests');
    const grantedUntil = mine.data!.data.requests[0]!.grantedUntil!;
    expect(Date.parse(grantedUntil) - Date.now()).toBeGreaterThan(364 * 86_400_000);
    const until = new Date(grantedUntil).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    await state.getByText(`Pro plan granted until ${until}.`).waitFor();
    await state.getByText('Welcome to Pro!').waitFor();
    await screenshot(customer.page, 'plan-request-granted');

    customer.watch.assertClean();
    admin.watch.assertClean();
    await customer.context.close();
    await admin.context.close();
  });

  it("Support's Send Message stores a message; the admin marks it handled; the customer reads the reply", async () => {
    const email = await verifiedUser(server, 'Alan Turing', 'support');
    const customer = await newPage(browser);
    await signIn(customer.page, server.url, email);
    await customer.page.goto(`${server.url}/support`);
    await customer.page.getByRole('button', { name: 'Send Message' }).click();
    const dialog = customer.page.getByRole('dialog', { name: 'Contact support' });
    await dialog.getByLabel('Topic').selectOption('technical');
    await dialog.getByLabel('Subject').fill('OCR languages');
    await dialog.getByLabel('Message', { exact: true }).fill('Which OCR languages are installed?');
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await dialog.getByText('Message received').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    const mine = customer.page.getByTestId('support-message').filter({ hasText: 'OCR languages' });
    await mine.getByText('Waiting for an answer').waitFor();

    const admin = await newPage(browser);
    await signIn(admin.page, server.url, owner.email, owner.password);
    await go(admin.page, '/admin/requests', 'Customer requests');
    const row = admin.page.getByTestId('admin-support-message').filter({ hasText: email });
    await row.getByText('Which OCR languages are installed?').waitFor();
    await row.getByRole('button', { name: 'Mark handled' }).click();
    const handle = admin.page.getByRole('dialog', { name: 'Mark the message handled' });
    await handle.getByLabel(/Reply/).fill('English, French, German, Spanish, Italian and Portuguese.');
    await handle.getByRole('button', { name: 'Mark handled' }).click();
    await toastText(admin.page, 'Message marked handled.');

    await customer.page.reload();
    await mine.getByText('Answered').waitFor();
    await mine.getByText(/English, French, German/).waitFor();
    await customer.context.close();
    await admin.context.close();
  });
});
