import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, registerAndVerify } from './auth-helper';

const attempt = (t: TestApp, email: string, password: string, ip = '198.51.100.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip });

describe('login throttling (LOGIN_MAX_FAILURES=3, LOGIN_LOCK_SECONDS=120, LOGIN_DAILY_IP_CAP=8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_LOCK_SECONDS: '120', LOGIN_DAILY_IP_CAP: '8' } });
  });
  afterAll(() => t.close());

  it('the N+1th attempt after N failures is 429 with Retry-After, even with the right password', async () => {
    const { email } = await registerAndVerify(t);
    for (let i = 0; i < 3; i++)
      expect((await attempt(t, email, 'Wrong-Password-1', '198.51.100.10')).statusCode).toBe(401);
    const locked = await attempt(t, email, 'Wrong-Password-1', '198.51.100.10');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(100);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(120);
    expect(locked.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      error: expect.stringMatching(/try again in 2 minutes/i),
    });
    const right = await attempt(t, email, PASSWORD, '198.51.100.10');
    expect(right.statusCode).toBe(429);

    // The lock is per account + IP: the owner signs in from elsewhere.
    expect((await attempt(t, email, PASSWORD, '198.51.100.11')).statusCode).toBe(200);
    const audit = await t.database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'login_refused' AND details LIKE '%throttled%'",
    );
    expect(audit[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it('a success resets the consecutive-failure count', async () => {
    const { email } = await registerAndVerify(t);
    const ip = '198.51.100.20';
    for (let i = 0; i < 2; i++) expect((await attempt(t, email, 'Wrong-Password-1', ip)).statusCode).toBe(401);
    expect((await attempt(t, email, PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await attempt(t, email, 'Wrong-Password-1', ip)).statusCode).toBe(401);
    expect((await attempt(t, email, PASSWORD, ip)).statusCode).toBe(429);
  });

  it('unknown e-mails count too', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < 3; i++)
      expect((await attempt(t, 'ghost@example.com', 'Wrong-Password-1', ip)).statusCode).toBe(401);
    expect((await attempt(t, 'ghost@example.com', 'Wrong-Password-1', ip)).statusCode).toBe(429);
  });

  it('one IP may fail LOGIN_DAILY_IP_CAP times a day across accounts', async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < 8; i++)
      expect((await attempt(t, `spray-${i}@example.com`, 'Wrong-Password-1', ip)).statusCode).toBe(401);
    const refused = await attempt(t, 'spray-new@example.com', 'Wrong-Password-1', ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(80_000);
    // Another address is not affected.
    expect((await attempt(t, 'spray-new@example.com', 'Wrong-Password-1', '198.51.100.41')).statusCode).toBe(401);
  });
});
