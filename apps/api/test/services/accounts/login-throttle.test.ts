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
  const make = (maxFailures = 2, dailyIpCap = 5, accountHourlyCap = 50) => {
    keyPrefix = `test-${randomBytes(6).toString('hex')}`;
    const th = createLoginThrottle({ maxFailures, lockSeconds: 60, dailyIpCap, accountHourlyCap, redisUrl, keyPrefix });
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
  /** One wrong password. */
  const fail = async (th: LoginThrottle, email: string, ip: string) => (await th.reserve(email, ip)).failed();

  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  it('locks an account+IP after maxFailures, with Retry-After the lock length', async () => {
    const th = make();
    await fail(th, 'a@x.io', '1.1.1.1');
    await fail(th, 'A@X.io', '1.1.1.1');
    const err = await refusal(th.reserve('a@x.io', '1.1.1.1'));
    expect(err.code).toBe('TOO_MANY_ATTEMPTS');
    expect(err.statusCode).toBe(429);
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(55);
    expect(Number(err.headers?.['Retry-After'])).toBeLessThanOrEqual(60);
    await th.reserve('a@x.io', '2.2.2.2');
    await th.reserve('b@x.io', '1.1.1.1');
    if (redisUrl) {
      // The counts are in Redis (shared by API nodes), not in the in-memory insurance limiter.
      const client = new Redis(redisUrl);
      try {
        const keys = await client.keys(`${keyPrefix}:*`);
        expect(keys.sort()).toEqual(
          [
            `${keyPrefix}:login_fail_account_hour:a@x.io`,
            `${keyPrefix}:login_fail_account_hour:b@x.io`,
            `${keyPrefix}:login_fail_account_ip:a@x.io_1.1.1.1`,
            `${keyPrefix}:login_fail_account_ip:a@x.io_2.2.2.2`,
            `${keyPrefix}:login_fail_account_ip:b@x.io_1.1.1.1`,
            `${keyPrefix}:login_fail_ip_day:1.1.1.1`,
            `${keyPrefix}:login_fail_ip_day:2.2.2.2`,
          ].sort(),
        );
      } finally {
        client.disconnect();
      }
    }
  });

  it('a success clears the account+IP count and is counted nowhere; failures still fill the daily IP count', async () => {
    const th = make(2, 3);
    await fail(th, 'a@x.io', '1.1.1.1');
    await (await th.reserve('a@x.io', '1.1.1.1')).succeeded();
    await fail(th, 'a@x.io', '1.1.1.1');
    await (await th.reserve('a@x.io', '1.1.1.1')).succeeded();
    await fail(th, 'c@x.io', '1.1.1.1');
    const err = await refusal(th.reserve('d@x.io', '1.1.1.1'));
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(86_000);
  });

  it('a thousand parallel guesses: exactly maxFailures get to check a password, the rest are refused at once', async () => {
    const th = make(5, 10_000);
    const results = await Promise.allSettled(
      Array.from({ length: 1000 }, async () => {
        const attempt = await th.reserve('victim@x.io', '203.0.113.9');
        await new Promise((r) => setTimeout(r, 20)); // the password check (argon2) takes a while
        await attempt.failed();
      }),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(995);
    expect(refused.every((r) => (r.reason as AppError).code === 'TOO_MANY_ATTEMPTS')).toBe(true);
  });

  it('counts an IPv6 client by its /64: a fresh address in the same block is the same client', async () => {
    const th = make(2);
    await fail(th, 'a@x.io', '2001:db8:1:2::1');
    await fail(th, 'a@x.io', '2001:db8:1:2:ffff::9');
    await refusal(th.reserve('a@x.io', '2001:db8:1:2:abcd::42'));
    await th.reserve('a@x.io', '2001:db8:1:3::1');
  });

  it('slows an account down whatever the addresses: guesses spread over many addresses meet the hourly cap', async () => {
    const th = make(5, 100, 10);
    for (let i = 0; i < 10; i++) await fail(th, 'owner@x.io', `198.51.100.${i + 1}`);
    const err = await refusal(th.reserve('owner@x.io', '198.51.100.200'));
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(3500);
    // Other accounts are untouched.
    await th.reserve('other@x.io', '198.51.100.200');
  });

  it("a known device is judged by its own count alone: untrusted clients' locks and caps miss it, and its failures fill none of theirs", async () => {
    const th = make(2, 3, 4);
    // The attacker: the account locked from 1.1.1.1, that address's daily cap spent, the account's hourly cap full.
    await fail(th, 'a@x.io', '1.1.1.1');
    await fail(th, 'a@x.io', '1.1.1.1');
    await fail(th, 'z@x.io', '1.1.1.1');
    await fail(th, 'a@x.io', '2.2.2.2');
    await fail(th, 'a@x.io', '3.3.3.3');
    await refusal(th.reserve('a@x.io', '1.1.1.1'));
    await refusal(th.reserve('a@x.io', '4.4.4.4'));
    await refusal(th.reserve('b@x.io', '1.1.1.1'));
    // The account's known device, at that very address.
    await (await th.reserve('a@x.io', '1.1.1.1', 'device-1')).succeeded();
    await (await th.reserve('a@x.io', '1.1.1.1', 'device-1')).failed();
    await (await th.reserve('a@x.io', '1.1.1.1', 'device-1')).failed();
    const err = await refusal(th.reserve('a@x.io', '1.1.1.1', 'device-1'));
    expect(Number(err.headers?.['Retry-After'])).toBeLessThanOrEqual(60);
    await (await th.reserve('a@x.io', '1.1.1.1', 'device-2')).succeeded();
    // A device's failures go nowhere else: not to its address's daily cap, nor to the account's counts.
    await (await th.reserve('c@x.io', '5.5.5.5', 'device-3')).failed();
    await (await th.reserve('c@x.io', '5.5.5.5', 'device-3')).failed();
    await fail(th, 'c@x.io', '5.5.5.5');
    for (const who of ['p', 'q']) await fail(th, `${who}@x.io`, '5.5.5.5');
    await refusal(th.reserve('s@x.io', '5.5.5.5'));
  });
});
