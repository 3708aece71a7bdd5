import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { notifications } from '../../../src/data/schema/index';
import { renewSubscription } from '../../../src/services/subscriptions/index';

const today = () => new Date().toISOString().slice(0, 10);

describe('/my/usage, /my/dashboard and /admin/stats/overview: real figures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestAppWith((app) => {
      app.get('/pdf/merge-test', { ...app.processingGuard('pdf') }, async (_req, reply) =>
        reply.code(200).send({ ok: true }),
      );
      app.get('/pdf/broken-test', { ...app.processingGuard('pdf') }, async () => {
        throw new Error('engine exploded');
      });
    });
  });
  afterAll(() => t.close());

  const get = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
  const hit = (key: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': key } });

  it('a new user: zeros for every day of the period and a create-a-key recommendation', async () => {
    const { accessToken } = await createTestUser(t);
    const res = await get(accessToken, '/my/usage?period=last_7_days');
    expect(res.statusCode).toBe(200);
    const u = res.json().data.usage;
    expect(u.usage.byDay).toHaveLength(7);
    expect(u.usage.byDay.at(-1)).toEqual({ date: today(), requests: 0, errors: 0 });
    expect(u.summary).toMatchObject({
      totalApiKeys: 0,
      activeApiKeys: 0,
      totalRequests: 0,
      successRate: 100,
      avgResponseTime: 0,
    });
    expect(u.recommendations[0]).toMatchObject({
      title: 'Create your first API key',
      priority: 'high',
      code: 'first-key',
    });
    expect((await get(accessToken, '/my/usage?period=last_90_days')).json().data.usage.usage.byDay).toHaveLength(90);
    expect((await get(accessToken, '/my/usage?period=yesterday')).statusCode).toBe(422);
  });

  it('figures match the calls made, per day, key and endpoint, with error details', async () => {
    const a = await createUserWithApiKey(t, { plan: 'pro' });
    // A second key of the same user, on free.
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/v1/my/api-keys',
      headers: { authorization: `Bearer ${a.accessToken}` },
      payload: { name: 'Free side key', planName: 'free' },
    });
    const freeKey = second.json().data.apiKey.key as string;
    for (let i = 0; i < 6; i++) expect((await hit(a.apiKey, '/pdf/merge-test')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await hit(a.apiKey, '/pdf/broken-test')).statusCode).toBe(500);
    for (let i = 0; i < 2; i++) expect((await hit(freeKey, '/pdf/merge-test')).statusCode).toBe(403);
    for (let i = 0; i < 3; i++) expect((await hit(freeKey, '/ping')).statusCode).toBe(200);
    // Someone else's traffic must not show.
    const other = await createUserWithApiKey(t, { plan: 'pro' });
    await hit(other.apiKey, '/pdf/merge-test');
    await t.app.apiKeyGuard.meter.flush();

    const res = await get(a.accessToken, '/my/usage?period=last_30_days&includeErrorDetails=true');
    const u = res.json().data.usage;
    expect(u.summary).toMatchObject({ totalApiKeys: 2, activeApiKeys: 2, totalRequests: 13 });
    expect(u.summary.successRate).toBeCloseTo((9 / 13) * 100, 0);
    expect(u.usage.byDay).toHaveLength(30);
    expect(u.usage.byDay.at(-1)).toEqual({ date: today(), requests: 13, errors: 4 });
    expect(u.usage.byDay.slice(0, -1).every((d: { requests: number }) => d.requests === 0)).toBe(true);
    expect(u.usage.byEndpoint).toEqual({
      '/pdf/merge-test': { group: 'pdf', requests: 8, successRate: 75, avgResponseTime: expect.any(Number) },
      '/ping': { group: 'system', requests: 3, successRate: 100, avgResponseTime: expect.any(Number) },
      '/pdf/broken-test': { group: 'pdf', requests: 2, successRate: 0, avgResponseTime: expect.any(Number) },
    });
    const byKey = Object.fromEntries(
      u.usage.byApiKey.map((k: { keyId: string; requests: number; successRate: number }) => [k.keyId, k]),
    );
    expect(byKey[a.keyId]).toMatchObject({ requests: 8, successRate: 75 });
    expect(byKey[a.keyId].lastUsed).not.toBeNull();
    expect(u.limits).toMatchObject({
      hasMultiplePlans: true,
      planName: 'pro',
      planDisplayName: 'Pro',
      maxRequestsPerMonth: 100000,
    });
    expect(u.limits.plans.sort()).toEqual(['free', 'pro']);
    // This month's quota counts the calls that passed the limits, less those the server failed: 6 on the pro key (its
    // two 500s are given back), 3 pings on the free key (the 403s do not count).
    expect(u.limits.currentMonthUsage).toBe(9);
    const pb = Object.fromEntries(u.limits.planBreakdown.map((p: { planName: string }) => [p.planName, p]));
    expect(pb.pro).toMatchObject({ usage: 6, totalUsage: 8, utilization: 0 });
    expect(pb.free).toMatchObject({ usage: 3, totalUsage: 5, utilization: 0.3 });
    expect(u.errors.total).toBe(4);
    expect(u.errors.byCode).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'INTERNAL_ERROR', status: 500, count: 2 }),
        expect.objectContaining({ code: 'ENDPOINT_NOT_ALLOWED', status: 403, count: 2 }),
      ]),
    );
    expect(u.errors.recent).toHaveLength(4);
    expect(u.recommendations.map((r: { title: string }) => r.title)).toContain('Success rate below 95%');

    const dash = (await get(a.accessToken, '/my/dashboard')).json().data.dashboard;
    expect(dash).toMatchObject({
      requestsToday: 13,
      requestsThisMonth: 13,
      totalApiKeys: 2,
      activeApiKeys: 2,
      planName: 'pro',
    });
    expect(dash.series).toHaveLength(30);
  });

  it('80% of the monthly quota is notified once per key and month', async () => {
    const k = await createUserWithApiKey(t, {
      customLimits: { maxRequestsPerMonth: 5, maxRequestsPerMinute: 100, burstLimit: null },
    });
    for (let i = 0; i < 5; i++) await hit(k.apiKey, '/ping');
    await new Promise((r) => setTimeout(r, 100));
    const notes = await t.app.db.select().from(notifications).where(eq(notifications.userId, k.userId));
    const warn = notes.filter((n) => n.dedupeKey?.startsWith('usage-80:'));
    expect(warn).toHaveLength(1);
    expect(warn[0]!.dedupeKey).toBe(`usage-80:${k.keyId}:${new Date().toISOString().slice(0, 7)}`);
  });

  it('admin overview: real global figures; 403 for non-admins', async () => {
    const plain = await createTestUser(t);
    expect((await get(plain.accessToken, '/admin/stats/overview')).statusCode).toBe(403);
    const admin = await createTestUser(t, { role: 'admin' });
    await t.app.apiKeyGuard.meter.flush();
    const before = (await get(admin.accessToken, '/admin/stats/overview')).json().data.overview;
    const paid = await createTestUser(t);
    await renewSubscription(t.app.db, paid.userId, 'pro', 30); // active paid: counts as revenue
    const trial = await createUserWithApiKey(t, { plan: 'enterprise' }); // a trial: no revenue
    await hit(trial.apiKey, '/pdf/merge-test');
    await hit(trial.apiKey, '/pdf/broken-test');
    await t.app.apiKeyGuard.meter.flush();
    const res = await get(admin.accessToken, '/admin/stats/overview');
    expect(res.statusCode).toBe(200);
    const o = res.json().data.overview;
    expect(o.users.total - before.users.total).toBe(2);
    expect(o.users.active).toBe(o.users.total);
    expect(o.users.newToday - before.users.newToday).toBe(2);
    expect(o.apiKeys.total - before.apiKeys.total).toBe(1);
    expect(o.requests.today - before.requests.today).toBe(2);
    expect(o.requests.thisMonth).toBe(o.requests.today + (before.requests.thisMonth - before.requests.today));
    expect(o.revenue.monthly - before.revenue.monthly).toBe(29);
    expect(o.revenue.activeSubscriptions - before.revenue.activeSubscriptions).toBe(1);
    expect(o.successRate + o.errorRate).toBeCloseTo(100, 0);
    expect(o.series).toHaveLength(30);
  });
});
