import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/lib/app-error';
import { createLoginThrottle, type LoginThrottle } from '../../../src/services/login-throttle';

/** In memory always; against Redis too when TEST_REDIS_URL is set (as TEST_DATABASE_URL does for PostgreSQL). */
const backends: Array<{ name: string; redisUrl?: string }> = [
  { name: 'memory' },
  ...(process.env.TEST_REDIS_URL ? [{ name: 'redis', redisUrl: process.env.TEST_REDIS_URL }] : []),
];

describe.each(backends)('login throttle ($name)', ({ redisUrl }) => {
  const open: LoginThrottle[] = [];
  let keyPrefix = '';
  const make = (maxFailures = 2, dailyIpCap = 5) => {
    keyPrefix = `test-${randomBytes(6).toString('hex')}`;
    const th = createLoginThrottle({ maxFailures, lockSeconds: 60, dailyIpCap, redisUrl, keyPrefix });
    open.push(th);
    return th;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((th) => th.close()));
    if (redisUrl) {
      const client = new Redis(redisUrl);
      const keys = await client.keys(`${keyPrefix}:*`);
      if (keys.length) await client.del(...keys);
      client.disconnect();
    }
  });

  const refusal = async (p: Promise<void>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  it('locks an account+IP after maxFailures, with Retry-After the lock length', async () => {
    const th = make();
    await th.assertAllowed('a@x.io', '1.1.1.1');
    await th.recordFailure('a@x.io', '1.1.1.1');
    await th.assertAllowed('a@x.io', '1.1.1.1');
    await th.recordFailure('A@X.io', '1.1.1.1');
    const err = await refusal(th.assertAllowed('a@x.io', '1.1.1.1'));
    expect(err.code).toBe('TOO_MANY_ATTEMPTS');
    expect(err.statusCode).toBe(429);
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(55);
    expect(Number(err.headers?.['Retry-After'])).toBeLessThanOrEqual(60);
    await th.assertAllowed('a@x.io', '2.2.2.2');
    await th.assertAllowed('b@x.io', '1.1.1.1');
    if (redisUrl) {
      // The counts are in Redis (shared by API nodes), not in the in-memory insurance limiter.
      const client = new Redis(redisUrl);
      try {
        const keys = await client.keys(`${keyPrefix}:*`);
        expect(keys.sort()).toEqual([
          `${keyPrefix}:login_fail_account_ip:a@x.io_1.1.1.1`,
          `${keyPrefix}:login_fail_ip_day:1.1.1.1`,
        ]);
      } finally {
        client.disconnect();
      }
    }
  });

  it('a success clears the account+IP count but not the daily IP count', async () => {
    const th = make(2, 3);
    await th.recordFailure('a@x.io', '1.1.1.1');
    await th.recordSuccess('a@x.io', '1.1.1.1');
    await th.recordFailure('a@x.io', '1.1.1.1');
    await th.assertAllowed('a@x.io', '1.1.1.1');
    await th.recordFailure('c@x.io', '1.1.1.1');
    const err = await refusal(th.assertAllowed('d@x.io', '1.1.1.1'));
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(86_000);
  });
});
