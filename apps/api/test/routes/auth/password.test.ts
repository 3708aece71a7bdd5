import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import {
  OTHER_PASSWORD,
  PASSWORD,
  bearer,
  jwtClaims,
  login,
  mailedToken,
  mailsTo,
  post,
  refreshCookie,
  registerAndVerify,
  registerBody,
} from './auth-helper';

describe('password reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const forgot = (email: string) => post(t, '/forgot-password', { email });
  const reset = (token: string, password = OTHER_PASSWORD, confirmPassword = password) =>
    post(t, '/reset-password', { token, password, confirmPassword });
  const resetToken = async (email: string) => {
    expect((await forgot(email)).statusCode).toBe(200);
    return mailedToken(t, email, '/reset-password');
  };

  describe('POST /forgot-password', () => {
    it('answers the same for an unknown address and mails nothing', async () => {
      const { email } = await registerAndVerify(t);
      const known = await forgot(email);
      const unknown = await forgot('nobody-at-all@example.com');
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect(mailsTo(t, 'nobody-at-all@example.com')).toHaveLength(0);
      const mail = mailsTo(t, email).at(-1)!;
      expect(mail).toContain('Subject: Reset your DocFlow password');
      expect(mailedToken(t, email, '/reset-password')).toMatch(/^[\w-]{43}$/);
    });

    it('links live 1 hour; one mail a minute per account', async () => {
      const { email, userId } = await registerAndVerify(t);
      await forgot(email);
      await forgot(email);
      expect(mailsTo(t, email).filter((m) => m.includes('Reset your DocFlow password'))).toHaveLength(1);
      const [row] = await t.database.sql.query<{ minutes: number }>(
        'SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM password_resets WHERE user_id = $1',
        [userId],
      );
      expect(Number(row!.minutes)).toBeCloseTo(60, 0);
    });
  });

  describe('POST /reset-password', () => {
    it('sets the password, signs every session out, signs in anew', async () => {
      const { email } = await registerAndVerify(t);
      const before = await login(t, email);
      const token = await resetToken(email);
      const res = await reset(token);
      expect(res.statusCode).toBe(200);
      const { user, tokens } = res.json().data;
      expect(user.email).toBe(email);
      expect(refreshCookie(res)?.value).toMatch(/^[\w-]{43}$/);
      expect(tokens.refreshToken).toBeUndefined(); // the cookie only, never the body
      expect((await post(t, '/refresh', { refreshToken: before.tokens.refreshToken })).statusCode).toBe(401);
      expect((await post(t, '/login', { email, password: PASSWORD })).statusCode).toBe(401);
      expect((await post(t, '/login', { email, password: OTHER_PASSWORD })).statusCode).toBe(200);
      const [s] = await t.database.sql.query<{ revoked_reason: string }>(
        'SELECT revoked_reason FROM sessions WHERE id = $1',
        [jwtClaims(before.tokens.accessToken).sid],
      );
      expect(s!.revoked_reason).toBe('password_reset');
      const audit = await t.database.sql.query(
        "SELECT 1 FROM audit_log WHERE action = 'password_reset' AND user_id = $1",
        [user.id],
      );
      expect(audit).toHaveLength(1);
    });

    it('marks an unverified e-mail verified (the user proved the mailbox)', async () => {
      const body = registerBody();
      await post(t, '/register', body);
      const res = await reset(await resetToken(body.email));
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user.emailVerified).toBe(true);
    });

    it('a used link is refused (400 INVALID_LINK)', async () => {
      const { email } = await registerAndVerify(t);
      const token = await resetToken(email);
      expect((await reset(token)).statusCode).toBe(200);
      const again = await reset(token, 'Another-Secret-81');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'INVALID_LINK', details: { reason: 'used' } });
    });

    it('an expired link is refused (400 LINK_EXPIRED)', async () => {
      const { email, userId } = await registerAndVerify(t);
      const token = await resetToken(email);
      await t.database.sql.query(
        "UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        [userId],
      );
      const res = await reset(token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'LINK_EXPIRED', error: expect.stringMatching(/expired/) });
    });

    it('an unknown link is refused', async () => {
      const res = await reset('no-such-token');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_LINK');
    });

    it('a weak password is refused with 422 and the link stays usable', async () => {
      const { email } = await registerAndVerify(t);
      const token = await resetToken(email);
      const weak = await reset(token, 'qwerty123');
      expect(weak.statusCode).toBe(422);
      expect(weak.json().code).toBe('WEAK_PASSWORD');
      expect((await reset(token)).statusCode).toBe(200);
    });

    it("mismatched passwords: 422 'Passwords do not match'", async () => {
      const res = await reset('whatever', OTHER_PASSWORD, 'Something-Else-1');
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toContain('Passwords do not match');
    });
  });
});

describe('POST /api/v1/auth/change-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const change = (accessToken: string, body: Record<string, string>) =>
    post(t, '/change-password', body, bearer(accessToken));

  it('changes the password and signs every OTHER session out', async () => {
    const { email, userId } = await registerAndVerify(t); // the verification opened one session
    const other = await login(t, email);
    const current = await login(t, email);
    const res = await change(current.tokens.accessToken, {
      currentPassword: PASSWORD,
      newPassword: OTHER_PASSWORD,
      confirmPassword: OTHER_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { revokedCount: 2 } });
    expect((await post(t, '/refresh', { refreshToken: other.tokens.refreshToken })).statusCode).toBe(401);
    expect((await post(t, '/refresh', { refreshToken: current.tokens.refreshToken })).statusCode).toBe(200);
    expect((await post(t, '/login', { email, password: OTHER_PASSWORD })).statusCode).toBe(200);
    expect((await post(t, '/login', { email, password: PASSWORD })).statusCode).toBe(401);
    const audit = await t.database.sql.query<{ action: string }>('SELECT action FROM audit_log WHERE user_id = $1', [
      userId,
    ]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['password_changed', 'sessions_revoked']));
  });

  it('a wrong current password is 401 INVALID_CREDENTIALS naming the field; the session stays', async () => {
    const { email } = await registerAndVerify(t);
    const { tokens } = await login(t, email);
    const res = await change(tokens.accessToken, {
      currentPassword: 'Not-My-Password-1',
      newPassword: OTHER_PASSWORD,
      confirmPassword: OTHER_PASSWORD,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      details: { fields: [{ field: 'currentPassword' }] },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(tokens.accessToken) })).statusCode,
    ).toBe(200);
  });

  it('a weak or unchanged new password is 422', async () => {
    const { email } = await registerAndVerify(t);
    const { tokens } = await login(t, email);
    const weak = await change(tokens.accessToken, {
      currentPassword: PASSWORD,
      newPassword: 'password123',
      confirmPassword: 'password123',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toMatchObject({ code: 'WEAK_PASSWORD', details: { fields: [{ field: 'newPassword' }] } });
    const same = await change(tokens.accessToken, {
      currentPassword: PASSWORD,
      newPassword: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().error).toMatch(/different/);
    const mismatch = await change(tokens.accessToken, {
      currentPassword: PASSWORD,
      newPassword: OTHER_PASSWORD,
      confirmPassword: 'x',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().error).toContain('Passwords do not match');
  });

  it('needs an access token', async () => {
    const res = await post(t, '/change-password', {
      currentPassword: PASSWORD,
      newPassword: OTHER_PASSWORD,
      confirmPassword: OTHER_PASSWORD,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  });
});

describe('POST /api/v1/auth/validate-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const validate = async (body: Record<string, string>) => {
    const res = await post(t, '/validate-password', body);
    expect(res.statusCode).toBe(200);
    return res.json().data.validation;
  };

  it('rates a strong password valid, with every requirement', async () => {
    expect(await validate({ password: 'Kangaroo-Orbit-42' })).toEqual({
      isValid: true,
      score: 4,
      strength: 'very_strong',
      feedback: [],
      requirements: {
        minLength: true,
        lowercase: true,
        uppercase: true,
        number: true,
        special: true,
        notCommon: true,
        notPersonal: true,
      },
    });
  });

  it('rates common, short and personal passwords invalid, saying why', async () => {
    const common = await validate({ password: 'P@ssw0rd123' });
    expect(common).toMatchObject({ isValid: false, score: 0, requirements: { notCommon: false } });
    expect(common.feedback.join(' ')).toMatch(/too common/);

    const short = await validate({ password: 'aB3$x' });
    expect(short).toMatchObject({ isValid: false, requirements: { minLength: false } });
    expect(short.score).toBeLessThanOrEqual(1);

    const personal = await validate({
      password: 'Grace-Hopper-1906',
      email: 'grace@example.com',
      name: 'Grace Hopper',
    });
    expect(personal).toMatchObject({ isValid: false, requirements: { notPersonal: false } });
  });

  it('needs the password field', async () => {
    expect((await post(t, '/validate-password', {})).statusCode).toBe(422);
  });
});
