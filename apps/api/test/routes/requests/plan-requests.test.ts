import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { notifications, subscriptions } from '../../../src/data/schema/index';
import type { Mail, Mailer } from '../../../src/services/mailer';

const DAY = 86_400_000;
let t: TestApp;
const sent: Mail[] = [];
const mailer: Mailer = { mode: 'outbox', send: async (m) => void sent.push(m) };

beforeAll(async () => {
  t = await buildTestApp({ mailer });
}, 60_000);
afterAll(() => t?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const codesOf = async (userId: string) =>
  (await t.app.db.select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.code);
const auditOf = async (adminToken: string, action: string) =>
  (await call(adminToken, 'GET', `/admin/audit-log?action=${action}&adminOnly=false&limit=100`)).json().data
    .entries as Array<{
    actor: { id: string } | null;
    target: { type: string; id: string } | null;
    details: Record<string, unknown>;
  }>;

describe('200/201: a customer asks, an admin answers', () => {
  it('stores the request, shows it only to its owner, and tells the admins', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    const customer = await createTestUser(t, { name: 'Carla Customer' });
    const other = await createTestUser(t);

    const created = await call(customer.accessToken, 'POST', '/my/plan-requests', {
      planName: 'pro',
      billingPeriod: 'yearly',
      message: 'We need OCR for invoices',
    });
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json().data.request;
    expect(request).toMatchObject({
      planName: 'pro',
      planDisplayName: 'Pro',
      billingPeriod: 'yearly',
      message: 'We need OCR for invoices',
      status: 'pending',
      grantedUntil: null,
      decidedAt: null,
    });
    expect(request).not.toHaveProperty('user');

    const own = (await call(customer.accessToken, 'GET', '/my/plan-requests')).json().data.requests;
    expect(own.map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect((await call(other.accessToken, 'GET', '/my/plan-requests')).json().data.requests).toEqual([]);
    // Another user cannot cancel it either: 404, as if it did not exist.
    const foreign = await call(other.accessToken, 'DELETE', `/my/plan-requests/${request.id}`);
    expect(foreign.statusCode).toBe(404);

    const again = await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', details: { requestId: request.id } });

    const listed = (await call(admin.accessToken, 'GET', '/admin/plan-requests?status=pending')).json().data.requests;
    expect(listed.find((r: { id: string }) => r.id === request.id)).toMatchObject({
      user: { id: customer.userId, email: customer.email, name: 'Carla Customer' },
      decidedBy: null,
    });
    expect(await codesOf(admin.userId)).toContain('plan-request.created');
    expect(await codesOf(customer.userId)).not.toContain('plan-request.created');
    const created_ = await auditOf(admin.accessToken, 'plan_request.create');
    expect(created_.find((e) => e.target?.id === request.id)).toMatchObject({ actor: { id: customer.userId } });
  });

  it('grant: the user holds the plan until the end of the period, and its limits apply to the next call', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    // A customer whose Pro trial ended: their Pro key answers 402.
    const customer = await createUserWithApiKey(t, { plan: 'pro' });
    await t.app.db
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, customer.userId));
    const ping = () => t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': customer.apiKey } });
    expect((await ping()).statusCode).toBe(402);

    const request = (
      await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro', billingPeriod: 'monthly' })
    ).json().data.request;
    sent.length = 0;
    const before = Date.now();
    const granted = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/grant`, {
      days: 30,
      note: 'Welcome aboard',
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const { request: decided, subscription } = granted.json().data;
    expect(subscription).toMatchObject({ planName: 'pro', status: 'active', source: 'admin', isActive: true });
    const until = Date.parse(subscription.expiresAt);
    expect(until - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * DAY);
    expect(decided).toMatchObject({
      status: 'granted',
      grantedPlanName: 'pro',
      grantedUntil: subscription.expiresAt,
      decisionNote: 'Welcome aboard',
      decidedBy: { id: admin.userId },
    });

    // The customer's plans and request read the grant; the key works again, under Pro's monthly limit.
    const subs = (await call(customer.accessToken, 'GET', '/my/subscriptions')).json().data.subscriptions;
    expect(subs.find((s: { planName: string }) => s.planName === 'pro')).toMatchObject({
      status: 'active',
      expiresAt: subscription.expiresAt,
      daysRemaining: 30,
    });
    const me = (await call(customer.accessToken, 'GET', '/my/plan-requests')).json().data.requests[0];
    expect(me).toMatchObject({ status: 'granted', grantedUntil: subscription.expiresAt });
    const pro = (await t.app.inject({ url: '/api/v1/plans/pro' })).json().data.plan;
    const pinged = await ping();
    expect(pinged.statusCode, pinged.body).toBe(200);
    expect(pinged.json().data).toMatchObject({ plan: 'pro', remaining: { month: pro.maxRequestsPerMonth - 1 } });

    // Told once, in the bell and by mail (no second "renewed" notification); audited with what was granted.
    const codes = await codesOf(customer.userId);
    expect(codes.filter((c) => c === 'plan-request.granted')).toHaveLength(1);
    expect(codes).not.toContain('plan.renewed');
    await t.app.mailer.drain();
    expect(sent).toHaveLength(1);
    const mail = sent[0];
    expect(mail?.subject).toMatch(/Pro plan granted/);
    expect(mail?.text).toContain('Welcome aboard');
    expect(mail?.text).toContain('/plans');
    const audit = (await auditOf(admin.accessToken, 'admin.plan_request.grant')).find(
      (e) => e.target?.id === request.id,
    );
    expect(audit).toMatchObject({
      actor: { id: admin.userId },
      target: { type: 'plan_request' },
      details: { requested: 'pro', granted: 'pro', days: 30, until: subscription.expiresAt, note: 'Welcome aboard' },
    });

    // Decided once: a second grant is 409, and its refusal is audited too.
    const twice = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/grant`, { days: 30 });
    expect(twice.statusCode).toBe(409);
    expect(await auditOf(admin.accessToken, 'admin.plan_request.grant.refused')).not.toHaveLength(0);
  });

  it('grant of another plan than asked for, for a year', async () => {
    const admin = await createTestUser(t, { role: 'super_admin' });
    const customer = await createTestUser(t);
    const request = (await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' })).json().data
      .request;
    const res = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/grant`, {
      planName: 'enterprise',
      days: 365,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request).toMatchObject({ planName: 'pro', grantedPlanName: 'enterprise' });
    expect(res.json().data.subscription).toMatchObject({ planName: 'enterprise', daysRemaining: 365 });
  });

  it('decline: with a note the customer reads, audited', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    const customer = await createTestUser(t);
    const request = (await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'enterprise' })).json()
      .data.request;
    const noNote = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/decline`, {});
    expect(noNote.statusCode).toBe(422);
    const res = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/decline`, {
      note: 'Please write to sales with your volumes',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request).toMatchObject({
      status: 'declined',
      decisionNote: 'Please write to sales with your volumes',
    });
    const mine = (await call(customer.accessToken, 'GET', '/my/plan-requests')).json().data.requests[0];
    expect(mine).toMatchObject({ status: 'declined', decisionNote: 'Please write to sales with your volumes' });
    const subs = (await call(customer.accessToken, 'GET', '/my/subscriptions')).json().data.subscriptions;
    expect(subs.map((s: { planName: string }) => s.planName)).toEqual(['free']);
    expect(await codesOf(customer.userId)).toContain('plan-request.declined');
    const audit = (await auditOf(admin.accessToken, 'admin.plan_request.decline')).find(
      (e) => e.target?.id === request.id,
    );
    expect(audit).toMatchObject({
      actor: { id: admin.userId },
      details: { note: 'Please write to sales with your volumes' },
    });
  });

  it('cancel: the customer withdraws a pending request, once', async () => {
    const customer = await createTestUser(t);
    const request = (await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' })).json().data
      .request;
    const res = await call(customer.accessToken, 'DELETE', `/my/plan-requests/${request.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.request.status).toBe('cancelled');
    expect((await call(customer.accessToken, 'DELETE', `/my/plan-requests/${request.id}`)).statusCode).toBe(409);
    // A new request for the same plan is possible once the first is withdrawn.
    expect((await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' })).statusCode).toBe(201);
  });
});

describe('4xx', () => {
  it('401 without a token; 404 for an unknown plan; 422 for the free plan', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/my/plan-requests' })).statusCode).toBe(401);
    const customer = await createTestUser(t);
    expect((await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'gold' })).statusCode).toBe(404);
    const free = await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'free' });
    expect(free.statusCode).toBe(422);
  });

  it('403 for a plain user on every admin route, checked on the server', async () => {
    const user = await createTestUser(t);
    const customer = await createTestUser(t);
    const request = (await call(customer.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' })).json().data
      .request;
    const refused = [
      await call(user.accessToken, 'GET', '/admin/plan-requests'),
      await call(user.accessToken, 'POST', `/admin/plan-requests/${request.id}/grant`, { days: 30 }),
      await call(user.accessToken, 'POST', `/admin/plan-requests/${request.id}/decline`, { note: 'no' }),
      await call(user.accessToken, 'GET', '/admin/support-messages'),
      await call(user.accessToken, 'POST', `/admin/support-messages/${request.id}/handle`, {}),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
    // Nothing was granted.
    const mine = (await call(customer.accessToken, 'GET', '/my/plan-requests')).json().data.requests[0];
    expect(mine.status).toBe('pending');
  });

  it('403 SELF_ACTION_FORBIDDEN: an admin does not grant their own request', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    const request = (await call(admin.accessToken, 'POST', '/my/plan-requests', { planName: 'pro' })).json().data
      .request;
    const res = await call(admin.accessToken, 'POST', `/admin/plan-requests/${request.id}/grant`, { days: 30 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SELF_ACTION_FORBIDDEN');
  });
});
