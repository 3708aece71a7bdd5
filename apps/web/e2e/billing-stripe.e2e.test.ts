import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startStripeStandIn, type StripeStandIn } from '@docflow/api/testing/fixtures/stripe-stand-in';
import { startServer, type E2eServer } from './support/server';
import { launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { signIn, verifiedUser } from './support/flows';

/**
 * Issue 29: a customer buys Pro through Stripe Checkout and cancels in the Customer Portal, as in a browser, with the
 * local Stripe stand-in (its Checkout and portal pages post the signed webhooks Stripe would) and the real SDK.
 * Free → Checkout → back on /plans as Pro with the period shown → a failed payment, the card updated from the grace
 * notice → portal cancel from "Cancel plan" → Free at the period's end.
 */
describe('buying and cancelling a plan through Stripe', () => {
  let stripe: StripeStandIn;
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    stripe = await startStripeStandIn({
      price_pro_monthly: { amount: 2900, currency: 'usd', interval: 'month' },
      price_enterprise_monthly: { amount: 9900, currency: 'usd', interval: 'month' },
    });
    [server, browser] = await Promise.all([
      startServer({
        env: stripe.env({ pro: { monthly: 'price_pro_monthly' }, enterprise: { monthly: 'price_enterprise_monthly' } }),
      }),
      launchBrowser(),
    ]);
    stripe.webhookUrls = [`${server.url}/api/v1/billing/stripe/webhook`];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stripe?.close();
  });

  it('Free → Checkout → Pro → card updated in the grace period → Cancel plan → Free at the period end', async () => {
    const email = await verifiedUser(server, 'Ada Buyer', 'billing');
    const { page, watch } = await newPage(browser, viewports.desktop);
    await signIn(page, server.url, email);

    // Plans: Free, and the billing card offers to pay.
    await page.goto(`${server.url}/plans`);
    const badge = page.getByTestId('current-plan-badge');
    await page.getByTestId('plans-grid').waitFor();
    expect(await badge.textContent()).toBe('Free');
    const card = page.getByTestId('billing-card');
    await card.getByText(/No subscription yet/).waitFor();

    // Upgrade opens Stripe Checkout (the stand-in's page); paying brings the browser back to /plans.
    await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade Now' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${stripe.url}/checkout/`));
    await page.getByRole('heading', { name: 'Stand-in Checkout' }).waitFor();
    expect(await page.getByText('Pay for 29.00 USD / month').count()).toBe(1);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${server.url}/plans`));

    // Pro, with the current period, the next invoice and the first invoice's PDF.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="current-plan-badge"]')?.textContent === 'Pro +1',
    );
    const customer = [...stripe.customers.values()].find((c) => c.email === email)!;
    const sub = stripe.subscriptionOf(customer.id as string);
    const item = sub.items.data[0]!;
    const day = (s: number) =>
      new Date(s * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    const start = day(item.current_period_start as number);
    const end = day(item.current_period_end as number);
    expect(await card.getByTestId('billing-status').textContent()).toBe('Active');
    expect(await card.getByTestId('billing-period').textContent()).toBe(`${start} – ${end}`);
    expect(await card.getByTestId('billing-period-note').textContent()).toBe(`Renews on ${end}`);
    expect(await card.getByTestId('billing-next-invoice').textContent()).toBe(`$29.00 on ${end}`);
    const invoice = card.getByTestId('billing-invoice');
    expect(await invoice.count()).toBe(1);
    expect(await invoice.getByRole('link', { name: /^PDF of invoice STANDIN-/ }).getAttribute('href')).toMatch(
      new RegExp(`^${stripe.url}/invoices/in_\\w+/pdf$`),
    );
    expect(await page.getByRole('article', { name: 'Pro' }).getByTestId('plan-status-badge').textContent()).toBe(
      'Primary Plan',
    );
    await screenshot(page, 'billing-stripe-pro');

    // A renewal's payment fails: the card says until when the plan is kept, and "Update card" opens the portal on
    // the card form (flow_data payment_method_update); a new card pays the open invoice and the notice goes.
    expect(await stripe.deliver(...stripe.failPayment(sub.id))).toEqual([200, 200]);
    await page.reload();
    const grace = card.getByTestId('billing-grace');
    await grace.getByText(/Your plan is kept until/).waitFor();
    await grace.getByRole('button', { name: 'Update card' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${stripe.url}/portal/`));
    await page.getByText('Update your card').waitFor();
    expect(stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!.body.flow_data).toEqual({
      type: 'payment_method_update',
      after_completion: { type: 'redirect', redirect: { return_url: `${server.url}/plans` } },
    });
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL((u) => u.href === `${server.url}/plans`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="billing-status"]')?.textContent === 'Active',
    );
    expect(await card.getByTestId('billing-grace').count()).toBe(0);

    // "Cancel plan" opens the portal on the cancellation of this subscription (flow_data subscription_cancel);
    // cancelling brings the browser back with the end date.
    await card.getByRole('button', { name: 'Cancel plan' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${stripe.url}/portal/`));
    await page.getByText('Cancel your subscription').waitFor();
    expect(
      stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!.body.flow_data,
    ).toMatchObject({
      type: 'subscription_cancel',
      subscription_cancel: { subscription: sub.id },
    });
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page.waitForURL((u) => u.href === `${server.url}/plans`);
    await card
      .getByTestId('billing-period-note')
      .getByText(`Ends on ${end}, then your account is on the Free plan`)
      .waitFor();
    expect(await card.getByTestId('billing-next-invoice').textContent()).toBe('None: the subscription does not renew');
    expect(await badge.textContent()).toBe('Pro +1'); // paid to the period's end

    // The period ends: Stripe deletes the subscription and says so.
    expect(await stripe.deliver(stripe.endSubscription(sub.id))).toEqual([200]);
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="current-plan-badge"]')?.textContent === 'Free',
    );
    expect(await card.getByTestId('billing-status').textContent()).toBe('Ended');
    expect(await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade Now' }).count()).toBe(
      1,
    );
    await screenshot(page, 'billing-stripe-ended');
    watch.assertClean();
  });
});
