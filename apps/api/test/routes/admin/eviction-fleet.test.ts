import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { startRedis } from '../../support/redis-server';
import { sleep } from '../../support/limits';

/**
 * Two API nodes on one database and one Redis: a user deactivated through one node is refused on the other at its
 * next call, although that node had the key in its cache a moment before (trusted for a second otherwise).
 */
describe.skipIf(!process.env.TEST_REDIS_URL)('key eviction across nodes (TEST_REDIS_URL)', () => {
  let redis: { url: string; child: ChildProcess };
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    redis = await startRedis();
    a = await buildTestApp({ env: { REDIS_URL: redis.url } });
    b = await buildTestAppWith(() => undefined, { env: { REDIS_URL: redis.url }, database: a.database });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    redis?.child.kill('SIGKILL');
  });

  it('deactivation on node A refuses the cached key on node B at once', async () => {
    const admin = await createTestUser(a, { role: 'admin' });
    const victim = await createUserWithApiKey(a, { plan: 'free' });
    const onB = () => b.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': victim.apiKey } });
    expect((await onB()).statusCode).toBe(200);
    expect(b.app.apiKeyGuard.cache.cached(victim.apiKey)).toBeDefined();
    const off = await a.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/users/${victim.userId}/status`,
      headers: { authorization: `Bearer ${admin.accessToken}` },
      payload: { isActive: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await sleep(50); // pub/sub delivery; the cache would still trust the key for most of a second
    expect(b.app.apiKeyGuard.cache.cached(victim.apiKey)).toBeUndefined();
    expect((await onB()).json().code).toBe('ACCOUNT_DISABLED');
  });
});
