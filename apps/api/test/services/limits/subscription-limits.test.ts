import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { TestApp } from '../../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';
import { EngineError } from '../../../src/core/errors';

/**
 * Limits belong to what was sold: the user's subscription to a plan, shared by all its keys and kept across key
 * deletions; a custom key keeps counters of its own. Run in memory, and on Redis when TEST_REDIS_URL is set.
 * The plans' figures are narrowed in this file's own database so a quota is a handful of calls.
 */
const REDIS = process.env.TEST_REDIS_URL;
const modes: Array<'memory' | 'redis'> = REDIS ? ['memory', 'redis'] : ['memory'];

describe.each(modes)('limits per subscription (%s)', (mode) => {
  let t: TestApp;
  const env = mode === 'redis' ? { REDIS_URL: REDIS! } : undefined;
  beforeAll(async () => {
    t = await buildTestAppWith(
      (app) => {
        app.get('/test/queue-full', { ...app.processingGuard('conversion') }, async () => {
          throw new EngineError('QUEUE_FULL', 'All processing slots are busy', { retryAfter: 5 });
        });
      },
      { env },
    );
    const redis = t.app.apiKeyGuard.limits.redis;
    for (let i = 0; i < 100 && redis && redis.status !== 'ready'; i++) await sleep(20);
  });
  afterAll(() => t.close());

  /** Narrow a plan's limits; keys created afterwards read them (their first lookup loads the plan). */
  async function setPlan(
    name: 'free' | 'pro',
    o: { month?: number; hour?: number; minute?: number; burst?: number | null; keys?: number },
  ) {
    await t.database.sql.query(
      `UPDATE plans SET max_requests_per_month = $2, max_requests_per_hour = $3, max_requests_per_minute = $4,
         burst_limit = $5, max_api_keys_per_user = $6 WHERE name = $1`,
      [name, o.month ?? 100_000, o.hour ?? 10_000, o.minute ?? 1000, o.burst ?? null, o.keys ?? 5],
    );
  }

  const ping = (key: string, app = t.app) =>
    app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': key } });
  const my = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/my${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('deleting and recreating a Free key does not reset the month, not even after a restart', async () => {
    await setPlan('free', { month: 3, keys: 1 });
    const { accessToken, userId } = await createTestUser(t);
    const first = (await my(accessToken, 'POST', '/api-keys', { name: 'First key' })).json().data.apiKey;
    for (let i = 0; i < 3; i++) expect((await ping(first.key)).statusCode).toBe(200);
    expect((await my(accessToken, 'DELETE', `/api-keys/${first.id}`)).statusCode).toBe(200);
    const second = await my(accessToken, 'POST', '/api-keys', { name: 'Second key' });
    expect(second.statusCode).toBe(201);
    const key = second.json().data.apiKey.key as string;
    const refused = await ping(key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { window: 'month' } });
    expect(refused.headers['ratelimit-limit']).toBe('3');

    // A node with empty counters (a restart; or Redis lost the counter) seeds the month from the rollups of every
    // key of the subscription, the deleted one included.
    await t.app.apiKeyGuard.meter.flush();
    const restarted = await buildTestAppWith(() => undefined, { env, database: t.database });
    try {
      if (mode === 'redis') {
        const admin = new Redis(REDIS!);
        const months = await admin.keys(`docflow:rl:m:s:${userId}:*`);
        expect(months).toHaveLength(1);
        if (months.length) await admin.del(...months);
        admin.disconnect();
      }
      const again = await ping(key, restarted.app);
      expect(again.statusCode).toBe(429);
      expect(again.json().code).toBe('QUOTA_EXCEEDED');
    } finally {
      await restarted.close();
    }
  });

  it('five Pro keys share one month', async () => {
    await setPlan('pro', { month: 6 });
    const { accessToken } = await createUserWithApiKey(t, { plan: 'pro' });
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await my(accessToken, 'POST', '/api-keys', { name: `Pro ${i}`, planName: 'pro' });
      expect(r.statusCode).toBe(201);
      keys.push(r.json().data.apiKey.key);
    }
    const codes = [];
    for (let i = 0; i < 8; i++) codes.push((await ping(keys[i % keys.length]!)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const last = await ping(keys[0]!);
    expect(last.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
  });

  it('the keys of one subscription share the minute and the hour too', async () => {
    await setPlan('pro', { minute: 3 });
    const a = await createUserWithApiKey(t, { plan: 'pro' });
    const b = (await my(a.accessToken, 'POST', '/api-keys', { name: 'Second', planName: 'pro' })).json().data.apiKey
      .key as string;
    const minute = [];
    for (const k of [a.apiKey, b, a.apiKey, b]) minute.push(await ping(k));
    expect(minute.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(minute[3]!.json().details.window).toBe('minute');

    await setPlan('pro', { hour: 2 });
    const c = await createUserWithApiKey(t, { plan: 'pro' });
    const d = (await my(c.accessToken, 'POST', '/api-keys', { name: 'Second', planName: 'pro' })).json().data.apiKey
      .key as string;
    const hour = [];
    for (const k of [c.apiKey, d, d]) hour.push(await ping(k));
    expect(hour.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    expect(hour[2]!.json().details.window).toBe('hour');
  });

  it('a call the server failed (503 queue full) gives its quota back to the subscription', async () => {
    await setPlan('free', { month: 3, minute: 2, keys: 1 });
    const { apiKey } = await createUserWithApiKey(t);
    const full = () =>
      t.app.inject({ method: 'GET', url: '/api/v1/test/queue-full', headers: { 'x-api-key': apiKey } });
    for (let i = 0; i < 5; i++) expect((await full()).statusCode).toBe(503);
    const ok = await ping(apiKey);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.remaining).toMatchObject({ minute: 1, month: 2 });
  });

  it("a custom key keeps its own counters: it neither draws on nor feeds the plan's", async () => {
    await setPlan('pro', { month: 2 });
    const plan = await createUserWithApiKey(t, { plan: 'pro' });
    const custom = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMonth: 3, maxRequestsPerMinute: 100 },
    });
    // Same user for both: give the custom key to the plan key's owner.
    await t.database.sql.query(`UPDATE api_keys SET user_id = $1 WHERE id = $2`, [plan.userId, custom.keyId]);
    t.app.apiKeyGuard.cache.clear();
    for (let i = 0; i < 3; i++) expect((await ping(custom.apiKey)).statusCode).toBe(200);
    expect((await ping(custom.apiKey)).statusCode).toBe(429);
    for (let i = 0; i < 2; i++) expect((await ping(plan.apiKey)).statusCode).toBe(200);
    expect((await ping(plan.apiKey)).statusCode).toBe(429);
  });
});
