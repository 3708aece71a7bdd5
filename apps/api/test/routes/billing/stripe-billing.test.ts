import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, outboxMails, type TestApp } from '../../helper';
import { createTestApp } from '../../support/test-app';
import { createTestUser } from '../../support/api-keys';
import { startStripeStandIn, type StripeEvent, type StripeStandIn } from '../../fixtures/stripe-stand-in';
import { ownedPlans } from '../../../src/services/subscriptions/index';
import { tellLapsedGraces } from '../../../src/services/billing/grace-lapse';

/**
 * Payments through the real `stripe` SDK, pointed at a local stand-in of Stripe's API (test/fixtures), with webhook
 * events signed as Stripe signs them.
 */

const DAY = 86_400_000;
const prices = {
  price_pro_monthly: { amount: 2900, currency: 'usd', interval: 'month' as const },
  price_pro_yearly: { amount: 29000, currency: 'usd', interval: 'year' as const },
  price_enterprise_monthly: { amount: 9900, currency: 'usd', interval: 'month' as const },
};
const planPrices = {
  pro: { monthly: 'price_pro_monthly', yearly: 'price_pro_yearly' },
  enterprise: { monthly: 'price_enterprise_monthly' },
};

const as = (t: TestApp, token: string) => (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

describe('billing without Stripe', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('says provider none, refuses checkout, portal and webhooks with BILLING_NOT_CONFIGURED', async () => {
    const { accessToken } = await createTestUser(t);
    const call = as(t, accessToken);
    const state = await call('GET', '/billing');
    expect(state.statusCode).toBe(200);
    expect(state.json().data).toEqual({
      provider: 'none',
      plans: [],
      subscription: null,
      nextInvoice: null,
      invoices: [],
      invoicesAvailable: true,
    });
    const checkout = await call('POST', '/billing/checkout', { planName: 'pro' });
    expect([checkout.statusCode, checkout.json().code]).toEqual([409, 'BILLING_NOT_CONFIGURED']);
    expect((await call('POST', '/billing/portal')).json().code).toBe('BILLING_NOT_CONFIGURED');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(hook.json().code).toBe('BILLING_NOT_CONFIGURED');
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/billing' })).statusCode).toBe(401);
  });
});

describe('billing with Stripe (stand-in)', () => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    stripe = await startStripeStandIn(prices);
    const env = { ...stripe.env(planPrices), BILLING_GRACE_DAYS: '5' };
    t = await buildTestApp({ env });
    // A second API node on the same database: a fleet receiving the same events.
    second = await createTestApp({ env, database: t.database });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await stripe?.close();
  });

  const post = (app: TestApp, e: StripeEvent, opts?: { secret?: string; timestamp?: number; body?: string }) => {
    const { payload, headers } = stripe.signed(e, opts);
    return app.app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      headers,
      payload: opts?.body ?? payload,
    });
  };
  const deliver = async (...events: StripeEvent[]) => {
    const applied: boolean[] = [];
    for (const e of events) {
      const res = await post(t, e);
      expect(res.statusCode, res.body).toBe(200);
      applied.push(res.json().applied);
    }
    return applied;
  };
  const codes = async (userId: string) =>
    (
      await t.database.sql.query<{ code: string }>(
        'SELECT code FROM notifications WHERE user_id = $1 AND code LIKE $2 ORDER BY created_at, code',
        [userId, 'billing.%'],
      )
    ).map((r) => r.code);
  const owned = async (userId: string, at = new Date()) =>
    (await ownedPlans(t.app.db, userId, at)).map((o) => o.plan.name).sort();
  const planRow = async (userId: string, plan: string) =>
    (
      await t.database.sql.query<{ status: string; source: string; expires_at: Date | null }>(
        'SELECT s.status, s.source, s.expires_at FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.user_id = $1 AND p.name = $2',
        [userId, plan],
      )
    )[0];

  /** A user who went through Checkout for `plan` and whose payment Stripe took: the events, not yet delivered. */
  async function bought(plan = 'pro', interval: 'monthly' | 'yearly' = 'monthly', pay = true) {
    const user = await createTestUser(t);
    const call = as(t, user.accessToken);
    const res = await call('POST', '/billing/checkout', { planName: plan, interval });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().data.url;
    const sessionId = url.split('/').at(-1)!;
    const events = pay ? stripe.completeCheckout(sessionId) : [];
    const subId = pay ? (events[1]!.data.object as { id: string }).id : '';
    return { ...user, call, url, sessionId, events, subId };
  }

  describe('POST /billing/checkout', () => {
    it('answers the Checkout URL of a session for the plan price, the user as customer and reference', async () => {
      const { url, sessionId, email, userId } = await bought('pro', 'yearly');
      expect(url).toBe(`${stripe.url}/checkout/${sessionId}`);
      const customer = stripe.requests.find((r) => r.path === '/v1/customers' && r.body.email === email);
      expect(customer?.body).toMatchObject({ email, metadata: { userId } });
      const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body;
      expect(session).toMatchObject({
        mode: 'subscription',
        client_reference_id: userId,
        line_items: [{ price: 'price_pro_yearly', quantity: '1' }],
        success_url: 'http://localhost:3000/plans?checkout=success',
        cancel_url: 'http://localhost:3000/plans?checkout=cancelled',
        subscription_data: { metadata: { userId, plan: 'pro' } },
      });
      expect((session.subscription_data as Record<string, unknown>).trial_end).toBeUndefined();
    });

    it('refuses what cannot be bought with PLAN_NOT_FOR_SALE, naming what can', async () => {
      const { accessToken } = await createTestUser(t);
      const call = as(t, accessToken);
      const free = await call('POST', '/billing/checkout', { planName: 'free' });
      expect([free.statusCode, free.json().code]).toEqual([422, 'PLAN_NOT_FOR_SALE']);
      expect(free.json().error).toContain('valid: pro, enterprise');
      const yearly = await call('POST', '/billing/checkout', { planName: 'enterprise', interval: 'yearly' });
      expect(yearly.json()).toMatchObject({ code: 'PLAN_NOT_FOR_SALE', details: { intervals: ['monthly'] } });
      expect((await call('POST', '/billing/checkout', { planName: 'gold' })).json().code).toBe('PLAN_NOT_FOR_SALE');
    });

    it('carries a running trial over: the first payment falls when the trial ends', async () => {
      const { accessToken, userId } = await createTestUser(t);
      const call = as(t, accessToken);
      const trial = await call('POST', '/my/subscriptions', { planName: 'pro' });
      expect(trial.statusCode).toBe(201);
      const trialEnd = Math.floor(new Date(trial.json().data.subscription.expiresAt).getTime() / 1000);
      const res = await call('POST', '/billing/checkout', { planName: 'pro' });
      const sessionId = res.json().data.url.split('/').at(-1);
      const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body;
      expect(session.subscription_data).toMatchObject({ trial_end: String(trialEnd) });
      await deliver(...stripe.completeCheckout(sessionId));
      expect(await planRow(userId, 'pro')).toMatchObject({ status: 'active', source: 'stripe', expires_at: null });
      const state = (await call('GET', '/billing')).json().data;
      expect(state.subscription).toMatchObject({ planName: 'pro', status: 'trialing' });
      expect(new Date(state.subscription.currentPeriodEnd).getTime()).toBe(trialEnd * 1000);
      // The trial's own reminders stop: the row is no longer a trial.
      expect(await codes(userId)).toEqual(['billing.subscribed']);
    });
  });

  describe('POST /billing/portal', () => {
    it('is refused before any purchase, and answers the portal URL after', async () => {
      const { accessToken } = await createTestUser(t);
      const none = await as(t, accessToken)('POST', '/billing/portal');
      expect([none.statusCode, none.json().code]).toEqual([409, 'BILLING_ACCOUNT_MISSING']);
      const b = await bought();
      const res = await b.call('POST', '/billing/portal');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.url).toMatch(new RegExp(`^${stripe.url}/portal/bps_\\w+$`));
      expect(stripe.requests.at(-1)).toMatchObject({
        path: '/v1/billing_portal/sessions',
        body: { return_url: 'http://localhost:3000/plans' },
      });
      expect(stripe.requests.at(-1)!.body.flow_data).toBeUndefined();
    });

    it('opens on the card form, the cancellation or the plan change of the live subscription (flow)', async () => {
      const b = await bought();
      await deliver(...b.events);
      const back = { type: 'redirect', redirect: { return_url: 'http://localhost:3000/plans' } };
      const card = await b.call('POST', '/billing/portal', { flow: 'payment_method_update' });
      expect(card.statusCode, card.body).toBe(200);
      expect(stripe.requests.at(-1)!.body.flow_data).toEqual({ type: 'payment_method_update', after_completion: back });
      const page = await fetch(card.json().data.url);
      expect(await page.text()).toContain('Update your card');

      const cancel = await b.call('POST', '/billing/portal', { flow: 'subscription_cancel' });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(stripe.requests.at(-1)!.body.flow_data).toEqual({
        type: 'subscription_cancel',
        subscription_cancel: { subscription: b.subId },
        after_completion: back,
      });
      expect(await (await fetch(cancel.json().data.url)).text()).toContain('Cancel your subscription');

      await b.call('POST', '/billing/portal', { flow: 'subscription_update' });
      expect(stripe.requests.at(-1)!.body.flow_data).toEqual({
        type: 'subscription_update',
        subscription_update: { subscription: b.subId },
        after_completion: back,
      });
    });

    it('refuses a subscription flow without a live subscription, and an unknown flow', async () => {
      // The customer exists (Checkout made it) but the payment never completed: no subscription.
      const b = await bought('pro', 'monthly', false);
      const sent = stripe.requests.length;
      const cancel = await b.call('POST', '/billing/portal', { flow: 'subscription_cancel' });
      expect([cancel.statusCode, cancel.json().code]).toEqual([409, 'BILLING_SUBSCRIPTION_MISSING']);
      expect(stripe.requests.length).toBe(sent);
      const bad = await b.call('POST', '/billing/portal', { flow: 'refund_everything' });
      expect([bad.statusCode, bad.json().code]).toEqual([422, 'VALIDATION_ERROR']);
      expect(bad.json().error).toMatch(/flow/);
    });
  });

  describe('webhook events', () => {
    it('checkout completed: the plan at once, the period, the invoice, a notification and a mail', async () => {
      const b = await bought();
      expect(await owned(b.userId)).toEqual(['free']);
      expect(await deliver(...b.events)).toEqual([true, true, true]);
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await planRow(b.userId, 'pro')).toMatchObject({ status: 'active', source: 'stripe', expires_at: null });
      const state = (await b.call('GET', '/billing')).json().data;
      const item = stripe.sub(b.subId).items.data[0]!;
      expect(state).toMatchObject({
        provider: 'stripe',
        plans: [
          { planName: 'pro', intervals: ['monthly', 'yearly'] },
          { planName: 'enterprise', intervals: ['monthly'] },
        ],
        subscription: {
          id: b.subId,
          planName: 'pro',
          interval: 'monthly',
          status: 'active',
          cancelAtPeriodEnd: false,
          graceUntil: null,
          currentPeriodEnd: new Date((item.current_period_end as number) * 1000).toISOString(),
        },
        nextInvoice: { amount: 29, currency: 'USD' },
        invoicesAvailable: true,
      });
      expect(state.invoices).toHaveLength(1);
      expect(state.invoices[0]).toMatchObject({
        amount: 29,
        currency: 'USD',
        status: 'paid',
        number: expect.stringMatching(/^STANDIN-\d{4}$/),
      });
      expect(state.invoices[0].pdfUrl).toMatch(new RegExp(`^${stripe.url}/invoices/in_\\w+/pdf$`));
      expect(await codes(b.userId)).toEqual(['billing.subscribed']);
      await t.app.mailer.settled();
      expect(outboxMails(t.dataDir).some((m) => m.includes(b.email) && m.includes('Pro subscription active'))).toBe(
        true,
      );
    });

    it('duplicates and any order: each event applied once, the same final state', async () => {
      const b = await bought();
      const [completed, created, paid] = b.events;
      expect(await deliver(paid!, created!, paid!, completed!, created!, completed!)).toEqual([
        true,
        true,
        false,
        true,
        false,
        false,
      ]);
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await codes(b.userId)).toEqual(['billing.subscribed']);
      const [stored] = await t.database.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM billing_events WHERE id = ANY($1)',
        [b.events.map((e) => e.id)],
      );
      expect(stored!.n).toBe(3);
    });

    it('cancel in the portal: kept to the end of the paid period, then Free; a late update does not revive it', async () => {
      const b = await bought();
      await deliver(...b.events);
      const cancel = stripe.setCancelAtPeriodEnd(b.subId, true);
      await deliver(cancel);
      const periodEnd = new Date((stripe.sub(b.subId).items.data[0]!.current_period_end as number) * 1000);
      expect(await planRow(b.userId, 'pro')).toMatchObject({ status: 'active', expires_at: periodEnd });
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await owned(b.userId, new Date(periodEnd.getTime() + 1000))).toEqual(['free']);
      expect((await b.call('GET', '/billing')).json().data).toMatchObject({
        subscription: { cancelAtPeriodEnd: true },
        nextInvoice: null,
      });
      const ended = stripe.endSubscription(b.subId);
      // Stripe's retry of the cancel's update arrives after the deletion.
      await deliver(ended, cancel, stripe.event('customer.subscription.updated', stripe.sub(b.subId)));
      expect(await owned(b.userId)).toEqual(['free']);
      expect((await planRow(b.userId, 'pro'))?.status).toBe('cancelled');
      expect(await codes(b.userId)).toEqual(['billing.subscribed', 'billing.cancel-scheduled', 'billing.ended']);
    });

    it('upgrade applies at once; downgrade keeps the dearer plan to the end of the paid period', async () => {
      const b = await bought();
      await deliver(...b.events);
      const periodEnd = new Date((stripe.sub(b.subId).items.data[0]!.current_period_end as number) * 1000);
      await deliver(stripe.changePrice(b.subId, 'price_enterprise_monthly'));
      expect(await owned(b.userId)).toEqual(['enterprise', 'free', 'pro']);
      expect((await planRow(b.userId, 'enterprise'))?.expires_at).toBeNull();
      expect((await b.call('GET', '/auth/me')).json().data.user.plan).toBe('enterprise');
      await deliver(stripe.changePrice(b.subId, 'price_pro_monthly'));
      expect(await planRow(b.userId, 'enterprise')).toMatchObject({ status: 'active', expires_at: periodEnd });
      expect(await owned(b.userId)).toEqual(['enterprise', 'free', 'pro']);
      expect(await owned(b.userId, new Date(periodEnd.getTime() + 1000))).toEqual(['free', 'pro']);
      expect(await codes(b.userId)).toEqual(['billing.subscribed', 'billing.upgraded', 'billing.downgrade-scheduled']);
    });

    it('a failed payment starts the grace period, then Free; a later payment brings the plan back', async () => {
      const b = await bought();
      await deliver(...b.events);
      const failed = stripe.failPayment(b.subId);
      await deliver(...failed);
      const graceUntil = new Date(failed[0]!.created * 1000 + 5 * DAY);
      expect(await planRow(b.userId, 'pro')).toMatchObject({ status: 'active', expires_at: graceUntil });
      expect((await b.call('GET', '/billing')).json().data.subscription).toMatchObject({
        status: 'past_due',
        graceUntil: graceUntil.toISOString(),
      });
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await owned(b.userId, new Date(graceUntil.getTime() + 1000))).toEqual(['free']);
      await t.app.mailer.settled();
      expect(outboxMails(t.dataDir).some((m) => m.includes(b.email) && m.includes('Payment failed for Pro'))).toBe(
        true,
      );

      // The sweep at the grace's end tells it once, however many nodes run it.
      const after = new Date(graceUntil.getTime() + 1000);
      const told = await Promise.all([
        tellLapsedGraces(t.app.billing, after),
        tellLapsedGraces(second.app.billing, after),
      ]);
      expect(told.sort()).toEqual([0, 1]);
      expect((await planRow(b.userId, 'pro'))?.status).toBe('expired');
      expect(await codes(b.userId)).toEqual(['billing.subscribed', 'billing.payment-failed', 'billing.ended']);

      await deliver(...stripe.recoverPayment(b.subId));
      expect(await planRow(b.userId, 'pro')).toMatchObject({ status: 'active', expires_at: null });
      expect((await codes(b.userId)).at(-1)).toBe('billing.payment-recovered');
    });

    it('a bad signature is refused 400 and nothing is stored', async () => {
      const b = await bought();
      const e = b.events[0]!;
      const wrongSecret = await post(t, e, { secret: 'whsec_not_the_right_one' });
      expect([wrongSecret.statusCode, wrongSecret.json().code]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
      const tampered = await post(t, e, { body: JSON.stringify({ ...e, id: 'evt_forged' }) });
      expect(tampered.statusCode).toBe(400);
      const old = await post(t, e, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(old.statusCode).toBe(400);
      const unsigned = await t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/stripe/webhook',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(e),
      });
      expect([unsigned.statusCode, unsigned.json().code]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
      const rows = await t.database.sql.query('SELECT 1 FROM billing_events WHERE id IN ($1, $2)', [
        e.id,
        'evt_forged',
      ]);
      expect(rows).toHaveLength(0);
      expect(await owned(b.userId)).toEqual(['free']);
    });

    it('Stripe not answering while an event is applied: 502, the failure kept, the redelivery applies it', async () => {
      const b = await bought();
      const sub = stripe.sub(b.subId);
      stripe.subscriptions.delete(b.subId); // the stand-in answers 404 for it now
      const failed = await post(t, b.events[0]!);
      expect([failed.statusCode, failed.json().code]).toEqual([502, 'BILLING_PROVIDER_FAILED']);
      const row = async () =>
        (
          await t.database.sql.query<{ processed_at: Date | null; error: string | null; failed_at: Date | null }>(
            'SELECT processed_at, error, failed_at FROM billing_events WHERE id = $1',
            [b.events[0]!.id],
          )
        )[0];
      // Nothing applied, but the failure is on the event's row, Stripe's own words included.
      expect(await row()).toMatchObject({ processed_at: null, error: expect.stringMatching(/No such subscription/) });
      expect(await owned(b.userId)).toEqual(['free']);
      stripe.subscriptions.set(b.subId, sub);
      expect(await deliver(b.events[0]!)).toEqual([true]);
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await row()).toMatchObject({ processed_at: expect.any(Date), error: null });
      expect(await deliver(b.events[0]!)).toEqual([false]);
    });

    it('two API nodes on one database receiving the same events: each applied once', async () => {
      const b = await bought();
      const answers = await Promise.all(
        b.events.flatMap((e) => [post(t, e), post(second, e), post(second, e), post(t, e)]),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
      expect(answers.filter((a) => a.json().applied)).toHaveLength(3);
      expect(await owned(b.userId)).toEqual(['free', 'pro']);
      expect(await codes(b.userId)).toEqual(['billing.subscribed']);
    });

    it('through real HTTP: the stand-in posts the signed events itself when the customer pays', async () => {
      const listening = await createTestApp({ env: stripe.env(planPrices), database: t.database, listen: true });
      try {
        stripe.webhookUrls = [`${listening.url}/api/v1/billing/stripe/webhook`];
        const b = await bought('pro', 'monthly', false);
        const pay = await fetch(`${stripe.url}/checkout/${b.sessionId}/pay`, { method: 'POST', redirect: 'manual' });
        expect(pay.status).toBe(303);
        expect(pay.headers.get('location')).toBe('http://localhost:3000/plans?checkout=success');
        expect(await owned(b.userId)).toEqual(['free', 'pro']);
      } finally {
        stripe.webhookUrls = [];
        await listening.close();
      }
    });
  });

  describe('GET /admin/billing/events', () => {
    it('lists the events received for an admin: processed, failed with the reason, filtered by type and status', async () => {
      const admin = as(t, (await createTestUser(t, { role: 'admin' })).accessToken);
      const b = await bought();
      await deliver(...b.events);
      const unknownSub = stripe.event('customer.subscription.updated', { ...stripe.sub(b.subId), id: 'sub_gone' });
      expect((await post(t, unknownSub)).statusCode).toBe(502);

      const all = await admin('GET', '/admin/billing/events?limit=100');
      expect(all.statusCode, all.body).toBe(200);
      const byId = new Map(all.json().data.events.map((e: { id: string }) => [e.id, e]));
      const created = b.events[1]!;
      expect(byId.get(created.id)).toEqual({
        id: created.id,
        type: 'customer.subscription.created',
        created: new Date(created.created * 1000).toISOString(),
        received: expect.any(String),
        status: 'processed',
        processedAt: expect.any(String),
        outcome: expect.any(String),
        error: null,
        failedAt: null,
      });
      expect(byId.get(unknownSub.id)).toMatchObject({
        status: 'failed',
        processedAt: null,
        error: expect.stringMatching(/sub_gone/),
        failedAt: expect.any(String),
      });
      expect(all.json().data.types).toEqual(expect.arrayContaining(['invoice.paid', 'customer.subscription.updated']));

      const failed = (
        await admin('GET', '/admin/billing/events?status=failed&type=customer.subscription.updated')
      ).json().data;
      expect(failed.events.map((e: { id: string }) => e.id)).toContain(unknownSub.id);
      expect(failed.events.every((e: { status: string; type: string }) => e.status === 'failed')).toBe(true);
      expect(failed.pagination).toMatchObject({ page: 1, limit: 25, total: failed.events.length });

      const paid = (await admin('GET', '/admin/billing/events?type=invoice.paid&limit=1&page=1')).json().data;
      expect(paid.events).toHaveLength(1);
      expect(paid.events[0].type).toBe('invoice.paid');
      expect(paid.pagination.totalPages).toBe(paid.pagination.total);

      const bad = await admin('GET', '/admin/billing/events?status=lost');
      expect([bad.statusCode, bad.json().code]).toEqual([422, 'VALIDATION_ERROR']);
    });

    it('is refused to a customer (403) and to no one signed in (401)', async () => {
      const user = as(t, (await createTestUser(t)).accessToken);
      const res = await user('GET', '/admin/billing/events');
      expect([res.statusCode, res.json().code]).toEqual([403, 'INSUFFICIENT_ROLE']);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/billing/events' })).statusCode).toBe(401);
    });
  });
});
