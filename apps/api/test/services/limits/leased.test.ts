import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Limits, type LimitDecision, type RateLimits } from '../../../src/services/limits/index';
import { limitsOf, sleep } from '../../support/limits';

/** Calls counted in Redis ahead (REDIS_LIMIT_LEASE): fewer round trips, the same decisions on one node, nothing lost. */
const REDIS = process.env.TEST_REDIS_URL;
const thisMonth = () => new Date().toISOString().slice(0, 7).replace('-', '');

describe.skipIf(!REDIS)('Limits on Redis with leases', () => {
  const prefix = `docflow:test:lease:${randomUUID()}:`;
  const opened: Limits[] = [];
  let admin: Redis;

  async function node(lease = 32): Promise<Limits> {
    const l = new Limits({ redisUrl: REDIS, prefix, lease });
    opened.push(l);
    for (let i = 0; i < 100 && l.redis!.status !== 'ready'; i++) await sleep(20);
    expect(l.redis!.status).toBe('ready');
    return l;
  }
  const counter = async (window: 'h' | 'm', k: string) =>
    Number((await admin.get(window === 'h' ? `${prefix}h:${k}` : `${prefix}m:${k}:${thisMonth()}`)) ?? 0);
  const calls = async (l: Limits, k: string, lim: RateLimits, n: number) => {
    const out: LimitDecision[] = [];
    for (let i = 0; i < n; i++) out.push(await l.consume(k, lim));
    return out;
  };

  /** Far from every limit: a lease of 32 (the most, as REDIS_LIMIT_LEASE by default). */
  const roomy = limitsOf({ maxRequestsPerMinute: 1000, maxRequestsPerHour: 4000, maxRequestsPerMonth: 40_000 });

  beforeAll(() => {
    admin = new Redis(REDIS!);
  });
  afterAll(async () => {
    await Promise.all(opened.map((l) => l.close()));
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
  });

  it('one node: most calls decided without Redis, the same figures call after call, the unused calls given back', async () => {
    const l = await node();
    const k = randomUUID();
    const lim = roomy;
    const out = await calls(l, k, lim, 100);
    expect(out.every((d) => d.allowed)).toBe(true);
    // Each call sees exactly one call more used than the one before, as without a lease.
    expect(out.map((d) => d.monthUsed)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(out.map((d) => d.remaining.hour)).toEqual(Array.from({ length: 100 }, (_, i) => 4000 - i - 1));
    // Redis counted ahead (at most a lease of 32 beyond the calls made, at least the calls made).
    const ahead = await counter('m', k);
    expect(ahead).toBeGreaterThan(100);
    expect(ahead).toBeLessThanOrEqual(132);
    // Unused for the lease's time: the calls not made go back.
    await sleep(2500);
    expect(await counter('m', k)).toBe(100);
    expect(await counter('h', k)).toBe(100);
  });

  it('near a limit the lease shrinks to one call: exactly the limit is allowed, then the hour refuses', async () => {
    const l = await node();
    const k = randomUUID();
    const lim = limitsOf({ maxRequestsPerMinute: 1000, maxRequestsPerHour: 300, maxRequestsPerMonth: 40_000 });
    const out = await calls(l, k, lim, 310);
    expect(out.filter((d) => d.allowed)).toHaveLength(300);
    expect(out.slice(300).every((d) => !d.allowed && d.window === 'hour')).toBe(true);
    await l.close();
    expect(await counter('h', k)).toBe(300);
  });

  it('two nodes share the limit; what one reserved and did not use goes back at close', async () => {
    const [a, b] = [await node(), await node()];
    const k = randomUUID();
    const lim = limitsOf({ maxRequestsPerMinute: 1000, maxRequestsPerHour: 5000, maxRequestsPerMonth: 50_000 });
    await calls(a, k, lim, 10);
    const fromB = await calls(b, k, lim, 10);
    expect(fromB.every((d) => d.allowed)).toBe(true);
    // B's first call saw A's calls and A's reservation counted in Redis: never fewer than the 10 made.
    expect(fromB[0]!.monthUsed).toBeGreaterThanOrEqual(11);
    await Promise.all([a.close(), b.close()]);
    expect(await counter('m', k)).toBe(20);
    expect(await counter('h', k)).toBe(20);
  });

  it('a refunded call goes back into the lease, and from there to Redis', async () => {
    const l = await node();
    const k = randomUUID();
    const lim = roomy;
    const out = await calls(l, k, lim, 5);
    const after = await l.refund(out[4]!.receipt!, lim);
    expect(after.monthUsed).toBe(4);
    expect((await l.consume(k, lim)).monthUsed).toBe(5);
    await l.close();
    expect(await counter('m', k)).toBe(5);
  });

  it('small plans are not leased: every call is counted in Redis as it is made', async () => {
    const l = await node();
    const k = randomUUID();
    await calls(l, k, limitsOf({ maxRequestsPerMinute: 10 }), 3);
    expect(await counter('m', k)).toBe(3);
  });
});
