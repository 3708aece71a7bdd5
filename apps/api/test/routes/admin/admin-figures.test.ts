import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../../support/api-keys';

/**
 * Issue 29, "every page agrees": the admins' overview and per-user stats count the month's calls as the user's own
 * dashboard and analytics do (made · counted · not counted, one definition: services/usage/month-calls.ts), whatever
 * name each call was made under. A usage row keeps the path it was called with; the routes below stand for an
 * endpoint's former and current names (the product keeps no rename table: each path is counted as recorded).
 */
describe('admin figures: the same month calls as the user sees', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestAppWith((app) => {
      for (const path of ['/pdf/old-name-test', '/pdf/new-name-test'])
        app.get(path, { ...app.processingGuard('pdf') }, async (_req, reply) => reply.send({ ok: true }));
      app.get('/pdf/fail-test', { ...app.processingGuard('pdf') }, async () => {
        throw new Error('engine exploded');
      });
    });
  });
  afterAll(() => t.close());

  const get = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
  const hit = async (key: string, url: string, times: number, status: number) => {
    for (let i = 0; i < times; i++)
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': key } })).statusCode,
      ).toBe(status);
  };

  it('old and new names, refused and failed calls: overview, user stats and the user pages agree', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    const pro = await createUserWithApiKey(t, { plan: 'pro' });
    const free = await createUserWithApiKey(t, { plan: 'free' });
    await hit(pro.apiKey, '/pdf/old-name-test', 4, 200);
    await hit(pro.apiKey, '/pdf/new-name-test', 3, 200);
    await hit(pro.apiKey, '/pdf/fail-test', 2, 500); // given back: made, not counted
    await hit(free.apiKey, '/pdf/new-name-test', 3, 403); // refused by the plan: made, not counted
    await hit(free.apiKey, '/ping', 2, 200);
    await t.app.apiKeyGuard.meter.flush();

    const month = new Date().toISOString().slice(0, 7);
    const proCalls = { month, made: 9, counted: 7, notCounted: 2 };
    const freeCalls = { month, made: 5, counted: 2, notCounted: 3 };

    for (const [u, expected] of [
      [pro, proCalls],
      [free, freeCalls],
    ] as const) {
      const dash = (await get(u.accessToken, '/my/dashboard')).json().data.dashboard;
      const usage = (await get(u.accessToken, '/my/usage')).json().data.usage;
      expect(dash.monthCalls).toEqual(expected);
      expect(usage.limits.monthCalls).toEqual(expected);

      const stats = await get(admin.accessToken, `/admin/users/${u.userId}/stats`);
      expect(stats.statusCode, stats.body).toBe(200);
      expect(stats.json().data.stats.monthCalls).toEqual(dash.monthCalls);
      expect(stats.json().data.stats.requests.thisMonth).toBe(dash.requestsThisMonth);
      const withUser = (await get(admin.accessToken, `/admin/users/${u.userId}?includeStats=true`)).json().data;
      expect(withUser.stats.monthCalls).toEqual(expected);
    }

    // Each name the pro user called is listed under the name it was called with, and together they are all its calls.
    const byEndpoint = (await get(pro.accessToken, '/my/usage')).json().data.usage.usage.byEndpoint;
    expect(Object.keys(byEndpoint).sort()).toEqual(['/pdf/fail-test', '/pdf/new-name-test', '/pdf/old-name-test']);
    expect(byEndpoint['/pdf/old-name-test'].requests).toBe(4);
    const perName = Object.values(byEndpoint as Record<string, { requests: number }>).map((e) => e.requests);
    expect(perName.reduce((a, b) => a + b, 0)).toBe(9);

    // Only these two users called anything on this server: the overview is their sum.
    const overview = (await get(admin.accessToken, '/admin/stats/overview')).json().data.overview;
    expect(overview.monthCalls).toEqual({ month, made: 14, counted: 9, notCounted: 5 });
    expect(overview.requests.thisMonth).toBe(overview.monthCalls.made);
    expect(overview.requests.today).toBe(14);
  });

  it('a customer may not read the figures (403)', async () => {
    const u = await createTestUser(t);
    const res = await get(u.accessToken, '/admin/stats/overview');
    expect([res.statusCode, res.json().code]).toEqual([403, 'INSUFFICIENT_ROLE']);
  });
});
