import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, deviceCookie, registerAndVerify } from './auth-helper';

const attempt = (t: TestApp, email: string, password: string, ip = '198.51.100.1', device?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: ip,
    cookies: device ? { df_device: device } : {},
  });

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

describe('device cookies: a shared NAT (LOGIN_MAX_FAILURES=3, LOGIN_DAILY_IP_CAP=8, LOGIN_ACCOUNT_HOURLY_CAP=5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        LOGIN_MAX_FAILURES: '3',
        LOGIN_LOCK_SECONDS: '120',
        LOGIN_DAILY_IP_CAP: '8',
        LOGIN_ACCOUNT_HOURLY_CAP: '5',
      },
    });
  });
  afterAll(() => t.close());

  let accessToken = '';
  /** A right password from `ip`: 200, and the device cookie the browser keeps. */
  const signIn = async (email: string, ip: string, device?: string) => {
    const res = await attempt(t, email, PASSWORD, ip, device);
    expect(res.statusCode, res.body).toBe(200);
    accessToken = res.json().data.tokens.accessToken;
    const cookie = deviceCookie(res)?.value;
    expect(cookie).toBeTruthy();
    return cookie!;
  };
  const WRONG = 'Wrong-Password-1';

  it('an attacker behind the office NAT locks out neither the colleagues nor the victim on their known devices', async () => {
    const office = '198.51.100.60';
    const victim = await registerAndVerify(t);
    const colleague = await registerAndVerify(t);
    // Earlier sign-ins, from the office and from home, left each browser a device cookie.
    const colleagueDevice = await signIn(colleague.email, office);
    const victimDevice = await signIn(victim.email, '203.0.113.60');

    // The attacker, from the office: three guesses lock the victim from this address, two more from elsewhere fill
    // the victim's hourly count, and a spray over made-up accounts spends the office's daily cap.
    for (let i = 0; i < 3; i++) expect((await attempt(t, victim.email, WRONG, office)).statusCode).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await attempt(t, victim.email, WRONG, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++)
      expect((await attempt(t, `spray-${i}@example.com`, WRONG, office)).statusCode).toBe(401);

    // Untrusted clients keep today's rules: the cap refuses guesses, the victim is locked everywhere without a cookie.
    const capped = await attempt(t, 'spray-new@example.com', WRONG, office);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(80_000);
    expect((await attempt(t, colleague.email, PASSWORD, office)).statusCode).toBe(429);
    expect((await attempt(t, victim.email, PASSWORD, office)).statusCode).toBe(429);
    expect((await attempt(t, victim.email, PASSWORD, '192.0.2.99')).statusCode).toBe(429);

    // Known devices are judged by their own count: the colleague signs in at the office, the victim too.
    const colleagueNext = await signIn(colleague.email, office, colleagueDevice);
    expect(colleagueNext).not.toBe(colleagueDevice);
    await signIn(victim.email, office, victimDevice);
    const victimSession = accessToken;
    // ...which gave the untrusted clients nothing back.
    expect((await attempt(t, victim.email, PASSWORD, office)).statusCode).toBe(429);
    expect((await attempt(t, 'spray-new@example.com', WRONG, office)).statusCode).toBe(429);

    // A stolen cookie of another account, or a forged one, buys nothing: still the cap and the victim's lock.
    for (const ip of [office, '192.0.2.98']) {
      expect((await attempt(t, victim.email, WRONG, ip, colleagueDevice)).statusCode).toBe(429);
      expect((await attempt(t, victim.email, PASSWORD, ip, colleagueNext)).statusCode).toBe(429);
    }
    const [nonce, expiry, mac] = victimDevice.split('.') as [string, string, string];
    const flip = (s: string) => `${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    const forged = [
      `${nonce}.${expiry}.${flip(mac)}`,
      `${nonce}.${(parseInt(expiry, 36) + 86_400).toString(36)}.${mac}`,
      `${flip(nonce)}.${expiry}.${mac}`,
    ];
    for (const cookie of forged)
      expect((await attempt(t, victim.email, PASSWORD, office, cookie)).statusCode, cookie).toBe(429);

    // Changing the password checks the current one under the same rules: the known device may, a bare token not.
    const change = (cookies: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/change-password',
        payload: { currentPassword: PASSWORD, newPassword: 'Quartz-Meadow-91', confirmPassword: 'Quartz-Meadow-91' },
        headers: { authorization: `Bearer ${victimSession}` },
        remoteAddress: office,
        cookies,
      });
    expect((await change({})).statusCode).toBe(429);
    const changed = await change({ df_device: victimDevice });
    expect(changed.statusCode, changed.body).toBe(200);

    const audit = await t.database.sql.query<{ details: string }>(
      "SELECT details FROM audit_log WHERE action = 'login_success' AND details LIKE '%trustedDevice%'",
    );
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it("a known device's own failures lock that device only, and fill none of the address's or account's counts", async () => {
    const ip = '198.51.100.70';
    const user = await registerAndVerify(t);
    const other = await registerAndVerify(t);
    const device = await signIn(user.email, ip);
    const otherDevice = await signIn(other.email, ip);
    for (let i = 0; i < 3; i++) expect((await attempt(t, user.email, WRONG, ip, device)).statusCode).toBe(401);
    const locked = await attempt(t, user.email, PASSWORD, ip, device);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(120);
    // Another device of the same address, and an untrusted client there, are untouched.
    await signIn(other.email, ip, otherDevice);
    await signIn(user.email, ip);
    for (let i = 0; i < 8; i++) expect((await attempt(t, `gone-${i}@example.com`, WRONG, ip)).statusCode).toBe(401);
    expect((await attempt(t, 'gone-8@example.com', WRONG, ip)).statusCode).toBe(429);
  });
});
