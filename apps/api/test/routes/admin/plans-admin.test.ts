import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t?.close());

describe('plans managed by super_admin and owner', () => {
  it('a change applies at once: to the next call of a key on the plan, the public catalogue and the audit log', async () => {
    const owner = await createTestUser(t, { role: 'owner' });
    const auth = { authorization: `Bearer ${owner.accessToken}` };
    const key = (await createUserWithApiKey(t, { plan: 'pro', subscription: 'active' })).apiKey;
    const ping = () => t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': key } });
    expect((await ping()).statusCode).toBe(200); // cached now, under the old limits

    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/plans/pro',
      headers: auth,
      payload: { maxRequestsPerMinute: 2, burstLimit: null, price: 31, isRecommended: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan).toMatchObject({ maxRequestsPerMinute: 2, price: 31, isRecommended: true });
    // The minute bucket now holds at most 2 calls: two more are admitted, the third is refused.
    const next = [];
    for (let i = 0; i < 3; i++) next.push((await ping()).statusCode);
    expect(next).toEqual([200, 200, 429]);
    const pub = (await t.app.inject({ url: '/api/v1/plans/pro' })).json().data.plan;
    expect(pub).toMatchObject({ maxRequestsPerMinute: 2, price: 31, isRecommended: true });

    const hidden = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/plans/enterprise',
      headers: auth,
      payload: { isPublic: false },
    });
    expect(hidden.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/plans/enterprise' })).statusCode).toBe(404);
    const all = (await t.app.inject({ url: '/api/v1/admin/plans', headers: auth })).json().data.plans as Array<{
      name: string;
    }>;
    expect(all.map((p) => p.name)).toContain('enterprise');

    const log = (await t.app.inject({ url: '/api/v1/admin/audit-log?action=admin.plan.update', headers: auth })).json()
      .data.entries;
    expect(log[1]).toMatchObject({
      target: { type: 'plan', label: 'pro' },
      details: { maxRequestsPerMinute: { to: 2 }, price: { to: 31 } },
    });
  });

  it('refuses limits that shrink upward and a price on the free plan', async () => {
    const owner = await createTestUser(t, { role: 'super_admin' });
    const put = (name: string, payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/admin/plans/${name}`,
        headers: { authorization: `Bearer ${owner.accessToken}` },
        payload,
      });
    expect((await put('pro', { maxRequestsPerMinute: 999_999 })).json().code).toBe('VALIDATION_ERROR');
    expect((await put('free', { price: 5 })).json().code).toBe('VALIDATION_ERROR');
  });

  it('edits the other bullets; refuses one that states a limit (those are made from the limits)', async () => {
    const owner = await createTestUser(t, { role: 'owner' });
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/plans/free',
        headers: { authorization: `Bearer ${owner.accessToken}` },
        payload,
      });
    const ok = await put({ features: ['Community support', 'Forum answers within a week'], maxRequestsPerMonth: 1500 });
    expect(ok.statusCode, ok.body).toBe(200);
    const pub = (await t.app.inject({ url: '/api/v1/plans/free' })).json().data.plan;
    expect(pub).toMatchObject({
      maxRequestsPerMonth: 1500,
      features: ['Community support', 'Forum answers within a week'],
    });
    for (const stale of ['1,000 requests per month', 'Files up to 5 MB', '5 API keys', 'PDFs up to 10 pages']) {
      const res = await put({ features: ['Community support', stale] });
      expect(res.statusCode, stale).toBe(422);
      expect(res.json().error).toMatch(/restates a limit/);
    }
    expect((await t.app.inject({ url: '/api/v1/plans/free' })).json().data.plan.features).toHaveLength(2);
  });
});
