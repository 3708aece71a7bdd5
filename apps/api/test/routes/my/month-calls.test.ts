import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helper';
import { buildTestAppWith, createUserWithApiKey } from '../../support/api-keys';

/**
 * Issue 29, "every figure is the enforced one": after a mix of counted and refused calls, the dashboard, the
 * analytics, the plan card (analytics limits) and the key cards read the same three figures of the month.
 */
describe('month calls: one definition on every page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestAppWith((app) => {
      app.get('/pdf/ok-test', { ...app.processingGuard('pdf') }, async (_req, reply) => reply.send({ ok: true }));
      app.get('/pdf/fail-test', { ...app.processingGuard('pdf') }, async () => {
        throw new Error('engine exploded');
      });
    });
  });
  afterAll(() => t.close());

  const get = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
  const hit = (key: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': key } });

  describe('200', () => {
    it('10 calls of which 3 refused: 10 made, 7 counted, 3 not counted on the dashboard, analytics and key card', async () => {
      const u = await createUserWithApiKey(t, { plan: 'free' });
      for (let i = 0; i < 7; i++) expect((await hit(u.apiKey, '/ping')).statusCode).toBe(200);
      // The free plan does not include pdf: refused by the plan gate, nothing counted.
      for (let i = 0; i < 3; i++) expect((await hit(u.apiKey, '/pdf/ok-test')).statusCode).toBe(403);
      await t.app.apiKeyGuard.meter.flush();

      const month = new Date().toISOString().slice(0, 7);
      const expected = { month, made: 10, counted: 7, notCounted: 3 };
      const dash = (await get(u.accessToken, '/my/dashboard')).json().data.dashboard;
      const usage = (await get(u.accessToken, '/my/usage')).json().data.usage;
      const keys = (await get(u.accessToken, '/my/api-keys')).json().data.apiKeys;

      expect(dash.monthCalls).toEqual(expected);
      expect(dash.requestsThisMonth).toBe(expected.made);
      expect(usage.limits.monthCalls).toEqual(expected);
      expect(usage.limits.currentMonthUsage).toBe(expected.counted);
      expect(usage.summary.totalRequests).toBe(expected.made);
      expect(keys).toHaveLength(1);
      expect(keys[0].monthCalls).toEqual(expected);
      expect(keys[0].currentUsage).toBe(expected.counted);
    });

    it('a call the server fails is given back: made, not counted; other users do not show', async () => {
      const u = await createUserWithApiKey(t, { plan: 'pro' });
      const other = await createUserWithApiKey(t, { plan: 'pro' });
      for (let i = 0; i < 4; i++) expect((await hit(u.apiKey, '/pdf/ok-test')).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await hit(u.apiKey, '/pdf/fail-test')).statusCode).toBe(500);
      await hit(other.apiKey, '/pdf/ok-test');
      await t.app.apiKeyGuard.meter.flush();

      const expected = { month: new Date().toISOString().slice(0, 7), made: 6, counted: 4, notCounted: 2 };
      const dash = (await get(u.accessToken, '/my/dashboard')).json().data.dashboard;
      const usage = (await get(u.accessToken, '/my/usage')).json().data.usage;
      const key = (await get(u.accessToken, `/my/api-keys/${u.keyId}`)).json().data.apiKey;
      expect(dash.monthCalls).toEqual(expected);
      expect(usage.limits.monthCalls).toEqual(expected);
      expect(usage.limits.planBreakdown[0]).toMatchObject({ usage: 4, totalUsage: 6 });
      expect(key.monthCalls).toEqual(expected);
    });
  });
});
