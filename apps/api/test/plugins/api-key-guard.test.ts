import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TestApp } from '../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../support/api-keys';
import { apiKeys, subscriptions, users } from '../../src/data/schema/index';
import { renewSubscription } from '../../src/services/subscriptions/index';
import { EngineError } from '../../src/core/errors';
import { generateApiKey } from '../../src/services/api-keys/key-format';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('API-key guard on /ping and group-gated routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestAppWith((app) => {
      // Test-only routes behind the guard, one per group the tests need.
      app.get('/test/pdf-op', { ...app.processingGuard('pdf') }, async () => ({ ok: true }));
      app.get('/test/batch-op', { ...app.processingGuard('batch') }, async () => ({ ok: true }));
      app.get('/test/fail', { ...app.processingGuard('conversion') }, async () => {
        throw new Error('boom');
      });
      app.get('/test/queue-full', { ...app.processingGuard('conversion') }, async () => {
        throw new EngineError('QUEUE_FULL', 'All processing slots are busy', { retryAfter: 5 });
      });
      app.get('/test/timeout', { ...app.processingGuard('conversion') }, async () => {
        throw new EngineError('TIMEOUT', 'The conversion took longer than 60 s');
      });
      app.get('/test/bad-input', { ...app.processingGuard('conversion') }, async () => {
        throw new EngineError('INVALID_INPUT', 'pages: "x" is not a page range');
      });
      // A door whose calls are known in its handler (the MCP door): ?group= presents a call, ?fail= ends it 503
      // inside a 200 answer.
      const deferred = app.deferredGuard();
      app.get('/test/deferred', { ...deferred.hooks }, async (request, reply) => {
        const { group, fail } = request.query as { group?: 'pdf' | 'conversion'; fail?: string };
        if (!group) return { listed: true };
        try {
          await deferred.admit(request, reply, group, '/deferred/op');
        } catch (err) {
          const e = err as EngineError & { statusCode: number };
          request.apiKeyState!.callStatus = e.statusCode;
          request.apiKeyState!.errorCode = e.code;
          return { refused: e.code };
        }
        if (fail) {
          request.apiKeyState!.callStatus = 503;
          request.apiKeyState!.errorCode = 'QUEUE_FULL';
        }
        return { ran: true };
      });
    });
  });
  afterAll(() => t.close());

  const ping = (key?: string, how: 'x-api-key' | 'bearer' = 'x-api-key') =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/ping',
      headers: key === undefined ? {} : how === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` },
    });

  describe('200', () => {
    it('accepts a key in x-api-key or as a Bearer token, with the limit and timing headers', async () => {
      const { apiKey } = await createUserWithApiKey(t, { plan: 'free' });
      const a = await ping(apiKey);
      expect(a.statusCode).toBe(200);
      expect(a.json().data).toEqual({
        plan: 'free',
        keyPrefix: apiKey.slice(0, 12),
        environment: 'development',
        remaining: { minute: 9, hour: 99, month: 999 },
      });
      expect(a.headers['ratelimit-limit']).toBe('10');
      expect(a.headers['ratelimit-remaining']).toBe('9');
      expect(Number(a.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(a.headers['ratelimit-policy']).toBe('5;w=60;burst=10, 100;w=3600, 1000;w=2592000');
      expect(a.headers['x-request-id']).toBeTruthy();
      expect(Number(a.headers['x-processing-time-ms'])).toBeGreaterThanOrEqual(0);
      const b = await ping(apiKey, 'bearer');
      expect(b.statusCode).toBe(200);
      expect(b.json().data.remaining.minute).toBe(8);
    });

    it('production keys start dfk_live_, others dfk_test_', async () => {
      const live = await createUserWithApiKey(t, { plan: 'free', environment: 'production' });
      const test = await createUserWithApiKey(t, { plan: 'free', environment: 'staging' });
      expect(live.apiKey).toMatch(/^dfk_live_[0-9A-Za-z]{38}$/);
      expect(test.apiKey).toMatch(/^dfk_test_[0-9A-Za-z]{38}$/);
      expect((await ping(live.apiKey)).json().data.environment).toBe('production');
    });
  });

  describe('401', () => {
    it('no key', async () => {
      const res = await ping();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'API_KEY_REQUIRED' });
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    });

    it('a made-up or mistyped key fails the checksum, without a lookup', async () => {
      const { apiKey } = await createUserWithApiKey(t);
      const last = apiKey.at(-1) === 'a' ? 'b' : 'a';
      const typo = apiKey.slice(0, -1) + last;
      const cache = t.app.apiKeyGuard.cache;
      const lookup = cache.lookup.bind(cache);
      let lookups = 0;
      cache.lookup = (k: string) => {
        lookups++;
        return lookup(k);
      };
      try {
        for (const k of ['hello', `dfk_test_${'a'.repeat(38)}`, typo, apiKey.replace('dfk_test_', 'dfk_live_')]) {
          const res = await ping(k);
          expect(res.statusCode).toBe(401);
          expect(res.json().code).toBe('INVALID_API_KEY');
        }
        expect(lookups).toBe(0);
        expect((await ping(apiKey)).statusCode).toBe(200);
        expect(lookups).toBe(1);
      } finally {
        cache.lookup = lookup;
      }
    });

    it('a well-formed key that does not exist', async () => {
      const { apiKey } = await createUserWithApiKey(t);
      await t.app.db
        .update(apiKeys)
        .set({ keyHash: 'gone' })
        .where(eq(apiKeys.keyPrefix, apiKey.slice(0, 12)));
      t.app.apiKeyGuard.cache.clear();
      const res = await ping(apiKey);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_API_KEY');
    });

    it('made-up keys cost one lookup each, valid keys stay cached, past 20 per minute an address gets 429', async () => {
      const cache = t.app.apiKeyGuard.cache;
      const { apiKey } = await createUserWithApiKey(t);
      const from = (key: string, remoteAddress: string) =>
        t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': key }, remoteAddress });
      expect((await from(apiKey, '198.51.100.1')).statusCode).toBe(200);
      // Read back at this moment, whatever time the misses below take on a busy machine (a found key lives 1 s).
      const cachedAt = Date.now();
      const fakes = Array.from({ length: 10 }, () => generateApiKey('development').key);
      const before = cache.queries;
      for (let round = 0; round < 2; round++)
        for (const k of fakes) expect((await from(k, '198.51.100.1')).json().code).toBe('INVALID_API_KEY');
      expect(cache.queries - before).toBe(10); // repeated fakes are answered from the miss cache
      expect(cache.cached(apiKey, cachedAt)).toBeDefined(); // and evicted no valid key

      // 20 unknown keys this minute from 198.51.100.1: the next unknown one is refused, looked up once at most.
      const another = generateApiKey('development').key;
      const refused = await from(another, '198.51.100.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', details: { retryAfter: expect.any(Number) } });
      const retry = Number(refused.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(cache.queries - before).toBe(11);
      // Malformed keys and keys remembered as unknown cost no query at all.
      expect((await from('nonsense', '198.51.100.1')).statusCode).toBe(429);
      for (const k of [another, ...fakes]) expect((await from(k, '198.51.100.1')).statusCode).toBe(429);
      expect(cache.queries - before).toBe(11);
      // A key cached as valid still works from there; other addresses are not affected.
      expect((await from(apiKey, '198.51.100.1')).statusCode).toBe(200);
      expect((await from(generateApiKey('development').key, '198.51.100.2')).statusCode).toBe(401);
    });

    it('a valid key from an address throttled for made-up keys is looked up and served (a shared NAT)', async () => {
      const cache = t.app.apiKeyGuard.cache;
      const { apiKey } = await createUserWithApiKey(t);
      const from = (key: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/v1/ping',
          headers: { 'x-api-key': key },
          remoteAddress: '203.0.113.9',
        });
      const answers = [];
      for (let i = 0; i < 25; i++) answers.push((await from(generateApiKey('development').key)).statusCode);
      expect(answers.slice(0, 20)).toEqual(Array(20).fill(401));
      expect(answers.slice(20)).toEqual(Array(5).fill(429));
      // Not in the cache (a key this node has not seen yet, or whose second of trust is over): looked up, served.
      cache.clear();
      const before = cache.queries;
      const res = await from(apiKey);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.keyPrefix).toBe(apiKey.slice(0, 12));
      expect(cache.queries - before).toBe(1);
      // The address stays throttled for what is not a key.
      expect((await from(generateApiKey('development').key)).statusCode).toBe(429);
    });

    it('a dashboard access token is not an API key', async () => {
      const { accessToken } = await createTestUser(t);
      const res = await ping(accessToken, 'bearer');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_API_KEY' });
      expect(res.json().error).toMatch(/access token is not an API key/);
    });

    it('a key disabled, deleted or regenerated through the API stops at once', async () => {
      const { apiKey, keyId, accessToken } = await createUserWithApiKey(t, { plan: 'pro' });
      const auth = { authorization: `Bearer ${accessToken}` };
      expect((await ping(apiKey)).statusCode).toBe(200);

      const off = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/my/api-keys/${keyId}`,
        headers: auth,
        payload: { isActive: false },
      });
      expect(off.statusCode).toBe(200);
      const disabled = await ping(apiKey);
      expect(disabled.statusCode).toBe(401);
      expect(disabled.json().error).toMatch(/disabled/);
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/my/api-keys/${keyId}`,
        headers: auth,
        payload: { isActive: true },
      });
      expect((await ping(apiKey)).statusCode).toBe(200);

      const regen = await t.app.inject({
        method: 'POST',
        url: `/api/v1/my/api-keys/${keyId}/regenerate`,
        headers: auth,
      });
      expect(regen.statusCode).toBe(200);
      const fresh = regen.json().data.apiKey.key as string;
      expect(fresh).not.toBe(apiKey);
      expect((await ping(apiKey)).statusCode).toBe(401);
      expect((await ping(fresh)).statusCode).toBe(200);

      const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/my/api-keys/${keyId}`, headers: auth });
      expect(del.statusCode).toBe(200);
      expect((await ping(fresh)).statusCode).toBe(401);
    });

    it('a key changed behind this node (another node, the database) stops within about a second', async () => {
      const { apiKey, keyId } = await createUserWithApiKey(t);
      expect((await ping(apiKey)).statusCode).toBe(200);
      await t.app.db.update(apiKeys).set({ isActive: false }).where(eq(apiKeys.id, keyId));
      await sleep(1100);
      expect((await ping(apiKey)).statusCode).toBe(401);

      const other = await createUserWithApiKey(t);
      expect((await ping(other.apiKey)).statusCode).toBe(200);
      await t.app.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, other.keyId));
      await sleep(1100);
      const expired = await ping(other.apiKey);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error).toMatch(/expired/);

      const third = await createUserWithApiKey(t);
      expect((await ping(third.apiKey)).statusCode).toBe(200);
      await t.app.db.update(apiKeys).set({ deletedAt: new Date() }).where(eq(apiKeys.id, third.keyId));
      await sleep(1100);
      expect((await ping(third.apiKey)).statusCode).toBe(401);
    });
  });

  describe('402 and 403', () => {
    it('a deactivated user: 403 ACCOUNT_DISABLED', async () => {
      const { apiKey, userId } = await createUserWithApiKey(t);
      await t.app.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
      t.app.apiKeyGuard.cache.clear();
      const res = await ping(apiKey);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ACCOUNT_DISABLED');
    });

    it('an expired trial: 402 PLAN_EXPIRED until an admin renews the plan', async () => {
      const { apiKey, userId } = await createUserWithApiKey(t, { plan: 'pro' });
      expect((await ping(apiKey)).statusCode).toBe(200);
      await t.app.db
        .update(subscriptions)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(subscriptions.userId, userId));
      t.app.apiKeyGuard.cache.clear();
      const res = await ping(apiKey);
      expect(res.statusCode).toBe(402);
      expect(res.json().code).toBe('PLAN_EXPIRED');
      expect(res.headers['ratelimit-policy']).toBe('100;w=60;burst=200, 5000;w=3600, 100000;w=2592000');
      expect(res.json().error).toMatch(/Pro plan .*trial ended on \d{4}-\d{2}-\d{2}.*administrator renews/);
      await renewSubscription(t.app.db, userId, 'pro', 30);
      t.app.apiKeyGuard.cache.clear();
      expect((await ping(apiKey)).statusCode).toBe(200);
    });

    it('a group outside the plan: 403 ENDPOINT_NOT_ALLOWED naming the cheapest plan that has it', async () => {
      const free = await createUserWithApiKey(t, { plan: 'free' });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/test/pdf-op',
        headers: { 'x-api-key': free.apiKey },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'ENDPOINT_NOT_ALLOWED',
        details: { group: 'pdf', requiredPlan: 'pro' },
      });
      expect(res.json().error).toMatch(
        /pdf endpoints are not included in the Free plan; they are available from the Pro plan/,
      );
      // Refused before the limits: nothing counted, the headers still tell the key's limits.
      expect(res.headers['ratelimit-policy']).toBe('5;w=60;burst=10, 100;w=3600, 1000;w=2592000');
      expect(res.headers['ratelimit-remaining']).toBe('10');

      const pro = await createUserWithApiKey(t, { plan: 'pro' });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/test/pdf-op', headers: { 'x-api-key': pro.apiKey } }))
          .statusCode,
      ).toBe(200);
      const batch = await t.app.inject({
        method: 'GET',
        url: '/api/v1/test/batch-op',
        headers: { 'x-api-key': pro.apiKey },
      });
      expect(batch.statusCode).toBe(403);
      expect(batch.json().error).toMatch(/Enterprise/);
      const ent = await createUserWithApiKey(t, { plan: 'enterprise' });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/test/batch-op', headers: { 'x-api-key': ent.apiKey } }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('429', () => {
    it('the N+1th call within the minute is refused with Retry-After', async () => {
      const { apiKey } = await createUserWithApiKey(t, { customLimits: { maxRequestsPerMinute: 3, burstLimit: null } });
      for (let i = 0; i < 3; i++) expect((await ping(apiKey)).statusCode).toBe(200);
      const res = await ping(apiKey);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { window: 'minute' } });
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(15);
      expect(retry).toBeLessThanOrEqual(20);
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['x-processing-time-ms']).toBeDefined();
    });

    it('token bucket: burstLimit calls at once, then one per refill interval', async () => {
      // 60 per minute = one token a second; bursts of 5.
      const { apiKey } = await createUserWithApiKey(t, { customLimits: { maxRequestsPerMinute: 60, burstLimit: 5 } });
      const burst = await Promise.all(Array.from({ length: 7 }, () => ping(apiKey)));
      expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(5);
      const refused = burst.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(2);
      expect(refused[0]!.headers['retry-after']).toBe('1');
      await sleep(1050);
      expect((await ping(apiKey)).statusCode).toBe(200);
      expect((await ping(apiKey)).statusCode).toBe(429);
    });

    it('the hourly window refuses without charging the bucket or the month', async () => {
      const { apiKey } = await createUserWithApiKey(t, {
        customLimits: { maxRequestsPerMinute: 100, burstLimit: null, maxRequestsPerHour: 2 },
      });
      expect((await ping(apiKey)).statusCode).toBe(200);
      const second = await ping(apiKey);
      expect(second.json().data.remaining).toEqual({ minute: 98, hour: 0, month: 99_998 });
      for (let i = 0; i < 3; i++) {
        const r = await ping(apiKey);
        expect(r.statusCode).toBe(429);
        expect(r.json().details.window).toBe('hour');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(3500);
      }
    });

    it('the monthly quota: 429 QUOTA_EXCEEDED, refused calls not counted', async () => {
      const { apiKey } = await createUserWithApiKey(t, {
        customLimits: { maxRequestsPerMinute: 100, burstLimit: null, maxRequestsPerHour: 50, maxRequestsPerMonth: 3 },
      });
      for (let i = 0; i < 3; i++) expect((await ping(apiKey)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        const r = await ping(apiKey);
        expect(r.statusCode).toBe(429);
        expect(r.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { window: 'month' } });
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        expect(r.headers['ratelimit-limit']).toBe('3');
      }
      // The month refusals gave back their minute and hour tokens: the other windows still show only the 3 calls.
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
      expect(res.headers['ratelimit-policy']).toBe('100;w=60, 50;w=3600, 3;w=2592000');
      // A custom key's counters are its own (limit subject `k:<keyId>`).
      const decision = await t.app.apiKeyGuard.limits.consume(`k:${(await keyIdOf(apiKey))!}`, {
        maxRequestsPerMinute: 100,
        maxRequestsPerHour: 50,
        maxRequestsPerMonth: 1000,
        burstLimit: null,
      });
      expect(decision.remaining.hour).toBe(50 - 4);
      expect(decision.remaining.minute).toBe(100 - 4);
    });
  });

  describe('server failures cost no quota', () => {
    it('503 QUEUE_FULL, 504 TIMEOUT and 500 give the call back; a 4xx the client caused still counts', async () => {
      const { apiKey, keyId } = await createUserWithApiKey(t, {
        customLimits: { maxRequestsPerMinute: 100, burstLimit: null, maxRequestsPerHour: 50, maxRequestsPerMonth: 10 },
      });
      const call = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
      expect((await ping(apiKey)).json().data.remaining).toEqual({ minute: 99, hour: 49, month: 9 });
      for (const [url, status, code] of [
        ['/api/v1/test/queue-full', 503, 'QUEUE_FULL'],
        ['/api/v1/test/timeout', 504, 'TIMEOUT'],
        ['/api/v1/test/fail', 500, 'INTERNAL_ERROR'],
      ] as const) {
        const res = await call(url);
        expect(res.statusCode).toBe(status);
        expect(res.json().code).toBe(code);
        // The answer's own headers already show the call given back.
        expect(res.headers['ratelimit-remaining']).toBe('9');
      }
      expect((await ping(apiKey)).json().data.remaining).toEqual({ minute: 98, hour: 48, month: 8 });
      const bad = await call('/api/v1/test/bad-input');
      expect(bad.statusCode).toBe(422);
      expect(bad.headers['ratelimit-remaining']).toBe('7');
      expect((await ping(apiKey)).json().data.remaining).toEqual({ minute: 96, hour: 46, month: 6 });

      await t.app.apiKeyGuard.meter.flush();
      const rows = await t.database.sql.query<{ status_code: number; error_code: string | null; counted: boolean }>(
        `select status_code, error_code, counted from usage_events where key_id = $1 order by id`,
        [keyId],
      );
      expect(rows.map((r) => [r.status_code, r.counted])).toEqual([
        [200, true],
        [503, false],
        [504, false],
        [500, false],
        [200, true],
        [422, true],
        [200, true],
      ]);
      // Still errors for the analytics.
      const [daily] = await t.database.sql.query<{ requests: number; counted: number; errors: number }>(
        `select sum(requests)::int as requests, sum(counted)::int as counted, sum(errors)::int as errors
           from usage_daily where key_id = $1`,
        [keyId],
      );
      expect(daily).toEqual({ requests: 7, counted: 4, errors: 4 });
    });
  });

  describe('a deferred guard (the calls known in the handler)', () => {
    it('checks the key first; a presented call passes the plan and limits; failures inside a 200 are given back', async () => {
      const { apiKey, keyId } = await createUserWithApiKey(t, { plan: 'free' });
      const get = (query: string, key = apiKey) =>
        t.app.inject({ method: 'GET', url: `/api/v1/test/deferred${query}`, headers: { 'x-api-key': key } });
      expect((await get('', 'dfk_test_nope')).statusCode).toBe(401);
      expect((await ping(apiKey)).json().data.remaining.month).toBe(999);
      expect((await get('')).json()).toEqual({ listed: true });
      expect((await get('?group=pdf')).json()).toEqual({ refused: 'ENDPOINT_NOT_ALLOWED' });
      const ran = await get('?group=conversion');
      expect(ran.json()).toEqual({ ran: true });
      expect(ran.headers['ratelimit-remaining']).toBeDefined();
      expect((await get('?group=conversion&fail=1')).json()).toEqual({ ran: true });
      // The ping, the call that ran, this ping: the listing and the refusal cost nothing, the failure was given back.
      expect((await ping(apiKey)).json().data.remaining.month).toBe(997);
      await t.app.apiKeyGuard.meter.flush();
      const rows = await t.database.sql.query<{
        endpoint: string;
        endpoint_group: string;
        status_code: number;
        error_code: string | null;
        counted: boolean;
      }>(
        `select endpoint, endpoint_group, status_code, error_code, counted from usage_events where key_id = $1 and endpoint <> '/ping' order by id`,
        [keyId],
      );
      expect(rows).toEqual([
        {
          endpoint: '/deferred/op',
          endpoint_group: 'pdf',
          status_code: 403,
          error_code: 'ENDPOINT_NOT_ALLOWED',
          counted: false,
        },
        { endpoint: '/deferred/op', endpoint_group: 'conversion', status_code: 200, error_code: null, counted: true },
        {
          endpoint: '/deferred/op',
          endpoint_group: 'conversion',
          status_code: 503,
          error_code: 'QUEUE_FULL',
          counted: false,
        },
      ]);
    });
  });

  describe('metering', () => {
    it('one usage event per guarded call, success or failure, written in batches', async () => {
      const { apiKey, keyId } = await createUserWithApiKey(t, { plan: 'free' });
      const before = t.app.apiKeyGuard.meter.batches;
      for (let i = 0; i < 4; i++) await ping(apiKey);
      await t.app.inject({ method: 'GET', url: '/api/v1/test/pdf-op', headers: { 'x-api-key': apiKey } });
      await t.app.inject({ method: 'GET', url: '/api/v1/test/fail', headers: { 'x-api-key': apiKey } });
      // Nothing is written on the request path.
      const none = await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from usage_events where key_id = $1`,
        [keyId],
      );
      expect(none[0]!.n).toBe(0);
      expect(t.app.apiKeyGuard.meter.pending).toBeGreaterThanOrEqual(6);
      await t.app.apiKeyGuard.meter.flush();
      expect(t.app.apiKeyGuard.meter.batches - before).toBe(1);
      const rows = await t.database.sql.query<{
        endpoint: string;
        endpoint_group: string;
        status_code: number;
        error_code: string | null;
        counted: boolean;
        duration_ms: number;
      }>(
        `select endpoint, endpoint_group, status_code, error_code, counted, duration_ms from usage_events where key_id = $1 order by id`,
        [keyId],
      );
      expect(rows).toHaveLength(6);
      expect(
        rows
          .slice(0, 4)
          .every((r) => r.endpoint === '/ping' && r.status_code === 200 && r.counted && r.endpoint_group === 'system'),
      ).toBe(true);
      expect(rows[4]).toMatchObject({
        endpoint: '/test/pdf-op',
        status_code: 403,
        error_code: 'ENDPOINT_NOT_ALLOWED',
        counted: false,
      });
      // The server failed it: recorded as an error, not counted against the quotas.
      expect(rows[5]).toMatchObject({
        endpoint: '/test/fail',
        status_code: 500,
        error_code: 'INTERNAL_ERROR',
        counted: false,
      });
      const daily = await t.database.sql.query<{ endpoint: string; requests: number; counted: number; errors: number }>(
        `select endpoint, requests, counted, errors from usage_daily where key_id = $1 order by endpoint`,
        [keyId],
      );
      expect(daily).toEqual([
        { endpoint: '/ping', requests: 4, counted: 4, errors: 0 },
        { endpoint: '/test/fail', requests: 1, counted: 0, errors: 1 },
        { endpoint: '/test/pdf-op', requests: 1, counted: 0, errors: 1 },
      ]);
      const [key] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
      expect(key!.lastUsedAt).toBeInstanceOf(Date);
      // More calls add to the same rollup rows (upsert), not new ones.
      await ping(apiKey);
      await t.app.apiKeyGuard.meter.flush();
      const [again] = await t.database.sql.query<{ requests: number }>(
        `select requests from usage_daily where key_id = $1 and endpoint = '/ping'`,
        [keyId],
      );
      expect(again!.requests).toBe(5);
    });

    it('flushes by itself within about a second, and many calls share few batches', async () => {
      const { apiKey, keyId } = await createUserWithApiKey(t, {
        customLimits: { maxRequestsPerMinute: 10_000, burstLimit: null },
      });
      await ping(apiKey);
      await sleep(1300);
      const [r] = await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from usage_events where key_id = $1`,
        [keyId],
      );
      expect(r!.n).toBe(1);
      const before = t.app.apiKeyGuard.meter.batches;
      for (let i = 0; i < 200; i++) await ping(apiKey);
      await sleep(50);
      while (t.app.apiKeyGuard.meter.pending > 0 && t.app.apiKeyGuard.meter.batches === before) await sleep(20);
      await sleep(100);
      const [r2] = await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from usage_events where key_id = $1`,
        [keyId],
      );
      expect(r2!.n).toBeGreaterThanOrEqual(200);
      expect(t.app.apiKeyGuard.meter.batches - before).toBeLessThanOrEqual(2);
    });
  });

  it('closing the app writes the buffered usage', async () => {
    const node = await buildTestAppWith(() => undefined, { database: t.database });
    const { apiKey, keyId } = await createUserWithApiKey(node);
    for (let i = 0; i < 3; i++)
      await node.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
    expect(node.app.apiKeyGuard.meter.pending).toBe(3);
    await node.close(); // the shared database stays open
    const [r] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from usage_events where key_id = $1`,
      [keyId],
    );
    expect(r!.n).toBe(3);
  });

  async function keyIdOf(key: string): Promise<string | undefined> {
    const [row] = await t.app.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.keyPrefix, key.slice(0, 12)));
    void sql;
    return row?.id;
  }
});
