import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import {
  PASSWORD,
  bearer,
  deviceCookie,
  jwtClaims,
  login,
  post,
  refreshCookie,
  registerAndVerify,
  registerBody,
} from './auth-helper';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

describe('POST /api/v1/auth/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  describe('200', () => {
    it('returns the user and tokens, sets the refresh cookie, records the session and lastLoginAt', async () => {
      const { email, userId } = await registerAndVerify(t);
      const { res, tokens, cookie } = await login(t, email, PASSWORD, { userAgent: CHROME_LINUX, ip: '203.0.113.7' });
      const { user } = res.json().data;
      expect(res.json().success).toBe(true);
      expect(user).toMatchObject({ id: userId, email, emailVerified: true, role: 'user' });
      expect(user.lastLoginAt).not.toBeNull();
      expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: t.config.ACCESS_TOKEN_TTL });
      expect(tokens.refreshToken).toMatch(/^[\w-]{43}$/);
      // Only the httpOnly cookie carries it: a script on the page can never read a token that renews the session.
      expect(res.json().data.tokens).not.toHaveProperty('refreshToken');
      expect(res.body).not.toContain(tokens.refreshToken);

      expect(cookie).toMatchObject({
        value: tokens.refreshToken,
        path: '/api/v1/auth',
        httpOnly: true,
        sameSite: 'Strict',
        maxAge: 7 * 86400,
      });
      expect(cookie?.secure).toBeFalsy();
      // The device cookie: this browser is now a known device of the account (see throttle.test.ts).
      expect(deviceCookie(res)).toMatchObject({
        value: expect.stringMatching(/^[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/),
        path: '/api/v1/auth',
        httpOnly: true,
        sameSite: 'Strict',
        maxAge: 180 * 86400,
      });
      expect(res.body).not.toContain(deviceCookie(res)!.value);

      const claims = jwtClaims(tokens.accessToken);
      expect(claims).toMatchObject({ sub: userId, role: 'user', iss: 'docflow' });
      const [session] = await t.database.sql.query<{
        id: string;
        user_agent: string;
        ip: string;
        remember_me: boolean;
        expires_at: Date;
      }>('SELECT id, user_agent, host(ip) AS ip, remember_me, expires_at FROM sessions WHERE id = $1', [claims.sid]);
      expect(session).toMatchObject({ user_agent: CHROME_LINUX, ip: '203.0.113.7', remember_me: false });
      const days = (new Date(session!.expires_at).getTime() - Date.now()) / 86400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);

      const audit = await t.database.sql.query<{ action: string; ip: string }>(
        'SELECT action, ip FROM audit_log WHERE user_id = $1',
        [userId],
      );
      expect(audit).toContainEqual({ action: 'login_success', ip: '203.0.113.7' });
    });

    it('rememberMe lengthens the refresh life to REMEMBER_ME_TTL_DAYS', async () => {
      const { email } = await registerAndVerify(t);
      const { tokens, cookie } = await login(t, email, PASSWORD, { rememberMe: true });
      expect(cookie?.maxAge).toBe(30 * 86400);
      const [session] = await t.database.sql.query<{ remember_me: boolean; expires_at: Date }>(
        'SELECT remember_me, expires_at FROM sessions WHERE id = $1',
        [jwtClaims(tokens.accessToken).sid],
      );
      expect(session!.remember_me).toBe(true);
      expect((new Date(session!.expires_at).getTime() - Date.now()) / 86400_000).toBeGreaterThan(29.9);
    });

    it('accepts the e-mail in any case and the access token opens /me', async () => {
      const { email } = await registerAndVerify(t);
      const { tokens } = await login(t, email.toUpperCase());
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(tokens.accessToken) });
      expect(me.statusCode).toBe(200);
      expect(me.json().data.user.email).toBe(email);
    });
  });

  describe('401', () => {
    it('refuses a wrong password with a clear message and audits it', async () => {
      const { email, userId } = await registerAndVerify(t);
      const res = await post(t, '/login', { email, password: 'Wrong-Password-99' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'INVALID_CREDENTIALS',
        error: 'Email ou mot de passe incorrect',
      });
      expect(refreshCookie(res)).toBeUndefined();
      const audit = await t.database.sql.query<{ action: string; details: string }>(
        'SELECT action, details FROM audit_log WHERE user_id = $1',
        [userId],
      );
      expect(audit.find((a) => a.action === 'login_failed')?.details).toContain('wrong_password');
    });

    it('answers an unknown e-mail exactly like a wrong password', async () => {
      const res = await post(t, '/login', { email: 'nobody-here@example.com', password: PASSWORD });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', error: 'Email ou mot de passe incorrect' });
    });

    it('takes about as long for an unknown e-mail as for a wrong password (dummy argon2 verify)', async () => {
      const { email } = await registerAndVerify(t);
      await post(t, '/login', { email: 'warm-up@example.com', password: 'x' });
      // Fastest of three tries each (three failures stay under LOGIN_MAX_FAILURES).
      const time = async (e: string) => {
        const runs: number[] = [];
        for (let i = 0; i < 3; i++) {
          const start = performance.now();
          await post(t, '/login', { email: e, password: 'Wrong-Password-99' });
          runs.push(performance.now() - start);
        }
        return Math.min(...runs);
      };
      const known = await time(email);
      const unknown = await time('nobody-else@example.com');
      // Without the dummy verify an unknown e-mail answers in ~1 ms against ~40 ms for a real argon2 check.
      expect(unknown).toBeGreaterThan(known / 4);
    });
  });

  describe('403', () => {
    it('refuses an unverified account with EMAIL_NOT_VERIFIED, but only after a right password', async () => {
      const body = registerBody();
      await post(t, '/register', body);
      const res = await post(t, '/login', { email: body.email, password: PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'EMAIL_NOT_VERIFIED',
        error: expect.stringMatching(/verify your email/i),
      });
      const wrong = await post(t, '/login', { email: body.email, password: 'Wrong-Password-99' });
      expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    });

    it('refuses a deactivated account with ACCOUNT_DISABLED', async () => {
      const { email } = await registerAndVerify(t);
      await t.database.sql.query('UPDATE users SET is_active = false WHERE email = $1', [email]);
      const res = await post(t, '/login', { email, password: PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ACCOUNT_DISABLED');
    });
  });

  describe('422', () => {
    it('names a missing password and a malformed e-mail', async () => {
      const res = await post(t, '/login', { email: 'nope' });
      expect(res.statusCode).toBe(422);
      const fields = res.json().details.fields.map((f: { field: string }) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
    });
  });
});

describe.each([
  ['https://docflow.example.com', true],
  // The scheme as an operator may write it: still https, so still Secure.
  ['HTTPS://Docflow.Example.com/', true],
  ['http://docflow.example.com', false],
])('the refresh cookie with PUBLIC_URL %s', (publicUrl, secure) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: publicUrl } });
  });
  afterAll(() => t.close());

  it(`is ${secure ? '' : 'not '}Secure where it is set, rotated and cleared; so is the device cookie`, async () => {
    const { email } = await registerAndVerify(t);
    const { cookie, res } = await login(t, email);
    expect(Boolean(cookie?.secure)).toBe(secure);
    expect(deviceCookie(res)?.value).toBeTruthy();
    expect(Boolean(deviceCookie(res)?.secure)).toBe(secure);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: {},
      cookies: { df_refresh: cookie!.value },
    });
    expect(refreshed.statusCode).toBe(200);
    const rotated = refreshCookie(refreshed);
    expect(rotated?.value).not.toBe(cookie!.value);
    expect(Boolean(rotated?.secure)).toBe(secure);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      payload: {},
      cookies: { df_refresh: rotated!.value },
    });
    expect(out.statusCode).toBe(200);
    expect(refreshCookie(out)?.value).toBe('');
    expect(Boolean(refreshCookie(out)?.secure)).toBe(secure);
  });
});
