import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { Limits } from '../../../src/services/limits/index';
import { limitsOf, sleep } from '../../support/limits';
import type { TestApp } from '../../helper';
import { buildTestAppWith, createUserWithApiKey } from '../../support/api-keys';
import { startRedis } from '../../support/redis-server';

const REDIS = process.env.TEST_REDIS_URL;
const L = limitsOf;

async function ready(l: Limits) {
  for (let i = 0; i < 100 && l.redis!.status !== 'ready'; i++) await sleep(20);
  expect(l.redis!.status).toBe('ready');
}

describe.skipIf(!REDIS)('Limits on Redis (TEST_REDIS_URL)', () => {
  const prefix = `docflow:test:${randomUUID()}:`;
  let a: Limits;
  let b: Limits;
  beforeAll(async () => {
    a = new Limits({ redisUrl: REDIS, prefix });
    b = new Limits({ redisUrl: REDIS, prefix });
    await ready(a);
    await ready(b);
  });
  afterAll(async () => {
    const r = new Redis(REDIS!);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
    await a.close();
    await b.close();
  });

  it('two nodes share one token bucket (Lua, Redis clock)', async () => {
    const k = randomUUID();
    const lim = L({ maxRequestsPerMinute: 60, burstLimit: 4 });
    const results = await Promise.all([a, b, a, b, a, b].map((l) => l.consume(k, lim)));
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
    expect(results.find((r) => !r.allowed)).toMatchObject({ window: 'minute', retryAfterSec: 1 });
    await sleep(1050);
    expect((await b.consume(k, lim)).allowed).toBe(true);
  });

  it('two nodes share the hour and month windows; refusals are given back', async () => {
    const k = randomUUID();
    await a.consume(k, L({ maxRequestsPerMonth: 3 }));
    await b.consume(k, L({ maxRequestsPerMonth: 3 }));
    await a.consume(k, L({ maxRequestsPerMonth: 3 }));
    for (const l of [a, b, a])
      expect(await l.consume(k, L({ maxRequestsPerMonth: 3 }))).toMatchObject({
        allowed: false,
        code: 'QUOTA_EXCEEDED',
      });
    const probe = await b.consume(k, L({ maxRequestsPerMonth: 100 }));
    expect(probe.remaining).toEqual({ minute: 96, hour: 996, month: 96 });
    const hour = randomUUID();
    await a.consume(hour, L({ maxRequestsPerHour: 1 }));
    expect(await b.consume(hour, L({ maxRequestsPerHour: 1 }))).toMatchObject({ allowed: false, window: 'hour' });
  });

  it('the month counter lives in Redis under the UTC month', async () => {
    const k = randomUUID();
    await a.consume(k, L());
    const r = new Redis(REDIS!);
    const keys = await r.keys(`${prefix}m*${k}*`);
    r.disconnect();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain(`${k}:${new Date().toISOString().slice(0, 7).replace('-', '')}`);
  });
});

describe.skipIf(!REDIS)('two API nodes on one Redis and one database', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await buildTestAppWith(() => undefined, { env: { REDIS_URL: REDIS! } });
    second = await buildTestAppWith(() => undefined, { env: { REDIS_URL: REDIS! }, database: first.database });
    await ready(first.app.apiKeyGuard.limits);
    await ready(second.app.apiKeyGuard.limits);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('share one per-minute limit', async () => {
    const { apiKey } = await createUserWithApiKey(first, {
      customLimits: { maxRequestsPerMinute: 4, burstLimit: null },
    });
    const ping = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
    const codes = [];
    for (const t of [first, second, first, second, first, second]) codes.push((await ping(t)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe.skipIf(!REDIS)('Redis going away mid-test', () => {
  let redis: { url: string; child: ChildProcess };
  let t: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    t = await buildTestAppWith(() => undefined, { env: { REDIS_URL: redis.url } });
    await ready(t.app.apiKeyGuard.limits);
  });
  afterAll(async () => {
    if (redis.child.exitCode === null) redis.child.kill('SIGKILL');
    await t.close();
  });

  it('the in-memory insurance takes over: no 500, limits still enforced', async () => {
    const { apiKey } = await createUserWithApiKey(t, { customLimits: { maxRequestsPerMinute: 5, burstLimit: null } });
    const ping = () => t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
    expect((await ping()).statusCode).toBe(200);
    expect((await ping()).statusCode).toBe(200);
    const r = new Redis(redis.url);
    expect((await r.keys('docflow:rl:*')).length).toBeGreaterThan(0); // the counters really were in Redis
    r.disconnect();

    const exited = new Promise((resolve) => redis.child.once('exit', resolve));
    redis.child.kill('SIGKILL');
    await exited;
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await ping();
      codes.push(res.statusCode);
      expect(res.headers['ratelimit-policy']).toBe('5;w=60, 10000;w=3600, 100000;w=2592000');
    }
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]); // the insurance bucket starts full
    expect(codes.slice(5)).toEqual([429, 429, 429]);
  });
});
