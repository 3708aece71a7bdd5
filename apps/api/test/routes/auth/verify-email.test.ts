import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { bearer, mailedToken, mailsTo, post, refreshCookie, registerAndVerify, registerBody } from './auth-helper';

const verify = (t: TestApp, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email?token=${encodeURIComponent(token)}` });

describe('GET /api/v1/auth/verify-email', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const registered = async () => {
    const body = registerBody();
    expect((await post(t, '/register', body)).statusCode).toBe(201);
    return { email: body.email as string, token: mailedToken(t, body.email as string, '/verify-email') };
  };

  describe('200', () => {
    it('marks the e-mail verified and signs the user in (tokens + cookie)', async () => {
      const { email, token } = await registered();
      const res = await verify(t, token);
      expect(res.statusCode).toBe(200);
      const { user, tokens } = res.json().data;
      expect(user).toMatchObject({ email, emailVerified: true });
      expect(user.emailVerifiedAt).not.toBeNull();
      expect(tokens.tokenType).toBe('Bearer');
      expect(refreshCookie(res)?.value).toMatch(/^[\w-]{43}$/);
      expect(tokens.refreshToken).toBeUndefined(); // the cookie only, never the body
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(tokens.accessToken) });
      expect(me.json().data.user.emailVerified).toBe(true);
      expect((await post(t, '/login', { email, password: 'Kangaroo-Orbit-42' })).statusCode).toBe(200);
    });
  });

  describe('400', () => {
    it('a used link: INVALID_LINK, reason used', async () => {
      const { token } = await registered();
      expect((await verify(t, token)).statusCode).toBe(200);
      const again = await verify(t, token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({
        code: 'INVALID_LINK',
        error: expect.stringMatching(/already been used/),
        details: { reason: 'used' },
      });
    });

    it('an expired link: LINK_EXPIRED', async () => {
      const { email, token } = await registered();
      await t.database.sql.query(
        "UPDATE email_verifications SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)",
        [email],
      );
      const res = await verify(t, token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'LINK_EXPIRED',
        error: expect.stringMatching(/expired/),
        details: { reason: 'expired' },
      });
      const login = await post(t, '/login', { email, password: 'Kangaroo-Orbit-42' });
      expect(login.json().code).toBe('EMAIL_NOT_VERIFIED');
    });

    it('an unknown link: INVALID_LINK, reason unknown', async () => {
      const res = await verify(t, 'made-up-token');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_LINK', details: { reason: 'unknown' } });
    });
  });

  describe('422', () => {
    it('no token parameter', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/verify-email' });
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    });
  });
});

describe('POST /api/v1/auth/resend-verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const resend = (email: string) => post(t, '/resend-verification', { email });

  it('answers the same for an unknown, a verified and an unverified address', async () => {
    const verified = await registerAndVerify(t);
    const body = registerBody();
    await post(t, '/register', body);
    await t.database.sql.query("UPDATE email_verifications SET created_at = now() - interval '2 minutes'");
    t.app.verificationMailWaits.clear();

    const answers = await Promise.all([resend('nobody@example.com'), resend(verified.email), resend(body.email)]);
    for (const res of answers) expect(res.statusCode).toBe(200);
    const bodies = answers.map((r) => r.json());
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[1]).toEqual(bodies[2]);
    expect(mailsTo(t, 'nobody@example.com')).toHaveLength(0);
    expect(mailsTo(t, verified.email)).toHaveLength(1);
    expect(mailsTo(t, body.email)).toHaveLength(2);
  });

  it('a new link replaces the old one', async () => {
    const body = registerBody();
    await post(t, '/register', body);
    const first = mailedToken(t, body.email, '/verify-email');
    await t.database.sql.query("UPDATE email_verifications SET created_at = now() - interval '2 minutes'");
    t.app.verificationMailWaits.clear();
    await resend(body.email);
    const second = mailedToken(t, body.email, '/verify-email');
    expect(second).not.toBe(first);
    expect((await verify(t, first)).json()).toMatchObject({ code: 'INVALID_LINK', details: { reason: 'unknown' } });
    expect((await verify(t, second)).statusCode).toBe(200);
  });

  it('tells the wait after a sign-up: 429 with Retry-After, and no second mail', async () => {
    const body = registerBody();
    await post(t, '/register', body);
    const res = await resend(body.email);
    expect(res.statusCode).toBe(429);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: wait } });
    expect(mailsTo(t, body.email)).toHaveLength(1);
    const original = mailedToken(t, body.email, '/verify-email');
    expect((await verify(t, original)).statusCode).toBe(200);
  });

  it('answers a repeat the same for an address with an account and one without', async () => {
    const body = registerBody();
    await post(t, '/register', body);
    await t.database.sql.query("UPDATE email_verifications SET created_at = now() - interval '2 minutes'");
    t.app.verificationMailWaits.clear();
    const firsts = await Promise.all([resend(body.email), resend('stranger@example.com')]);
    expect(firsts.map((r) => r.statusCode)).toEqual([200, 200]);
    const repeats = await Promise.all([resend(body.email.toUpperCase()), resend('stranger@example.com')]);
    expect(repeats.map((r) => r.statusCode)).toEqual([429, 429]);
    const { requestId: _a, ...one } = repeats[0]!.json();
    const { requestId: _b, ...other } = repeats[1]!.json();
    expect(one).toEqual(other);
    expect(one.error).toMatch(/just sent/);
    expect(mailsTo(t, body.email)).toHaveLength(2);
  });

  it("says the wait in the caller's language", async () => {
    await resend('french@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/resend-verification',
      headers: { 'accept-language': 'fr' },
      payload: { email: 'french@example.com' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toContain("vient d'être envoyé");
  });

  it('refuses a malformed address with 422', async () => {
    const res = await resend('not-an-email');
    expect(res.statusCode).toBe(422);
  });
});
