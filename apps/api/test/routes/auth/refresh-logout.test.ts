import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { bearer, jwtClaims, login, post, refreshCookie, registerAndVerify, tokensOf } from './auth-helper';

const refreshWithCookie = (t: TestApp, token: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: {}, cookies: { df_refresh: token } });

describe('POST /api/v1/auth/refresh', () => {
  let t: TestApp;
  let email: string;
  /** Date a spent refresh token's use back by `seconds`. */
  const spentSecondsAgo = (token: string, seconds: number) =>
    t.database.sql.query(
      `UPDATE session_used_tokens SET used_at = now() - make_interval(secs => $2) WHERE token_hash = $1`,
      [createHash('sha256').update(token).digest('hex'), seconds],
    );
  beforeAll(async () => {
    t = await buildTestApp();
    ({ email } = await registerAndVerify(t));
  });
  afterAll(() => t.close());

  describe('200', () => {
    it('rotates: a new refresh token each time (body), same session, new cookie', async () => {
      const { tokens } = await login(t, email);
      const res = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(res.statusCode).toBe(200);
      const next = tokensOf(res);
      expect(next).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
      expect(next.refreshToken).not.toBe(tokens.refreshToken);
      expect(jwtClaims(next.accessToken).sid).toBe(jwtClaims(tokens.accessToken).sid);
      expect(refreshCookie(res)).toMatchObject({ value: next.refreshToken, httpOnly: true, path: '/api/v1/auth' });
      const [s] = await t.database.sql.query<{ generation: number }>('SELECT generation FROM sessions WHERE id = $1', [
        jwtClaims(next.accessToken).sid,
      ]);
      expect(s!.generation).toBe(1);
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(next.accessToken) });
      expect(me.statusCode).toBe(200);
    });

    it('reads the token from the df_refresh cookie (the web app sends {})', async () => {
      const { cookie } = await login(t, email);
      const res = await refreshWithCookie(t, cookie!.value);
      expect(res.statusCode).toBe(200);
      const again = await refreshWithCookie(t, refreshCookie(res)!.value);
      expect(again.statusCode).toBe(200);
    });

    it('gives a fresh pair to a browser that lost its answer: a token spent within 10 s, sent again', async () => {
      // A page left or reloaded while its refresh was in flight: the server rotated, the browser never got the new
      // cookie, and the next page sends the token it still has.
      const { tokens } = await login(t, email);
      const lost = tokensOf(await post(t, '/refresh', { refreshToken: tokens.refreshToken }));
      const res = await refreshWithCookie(t, tokens.refreshToken);
      expect(res.statusCode).toBe(200);
      const again = tokensOf(res);
      expect(again.refreshToken).not.toBe(lost.refreshToken);
      expect(jwtClaims(again.accessToken).sid).toBe(jwtClaims(tokens.accessToken).sid);
      expect(refreshCookie(res)?.value).toBe(again.refreshToken);
      const sid = jwtClaims(again.accessToken).sid;
      const [s] = await t.database.sql.query<{ generation: number; revoked_at: Date | null }>(
        'SELECT generation, revoked_at FROM sessions WHERE id = $1',
        [sid],
      );
      expect(s).toMatchObject({ generation: 2, revoked_at: null });
      // Pages left one after the other, each before its answer: the same token comes back after two rotations.
      const third = await refreshWithCookie(t, tokens.refreshToken);
      expect(third.statusCode).toBe(200);
      expect(jwtClaims(tokensOf(third).accessToken).sid).toBe(sid);
      // The session goes on with the newest token; the pairs that never arrived are spent.
      expect((await post(t, '/refresh', { refreshToken: tokensOf(third).refreshToken })).statusCode).toBe(200);
      await spentSecondsAgo(lost.refreshToken, 11);
      const reuse = await post(t, '/refresh', { refreshToken: lost.refreshToken });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().error).toMatch(/already used/);
    });

    it('accepts a POST with no body at all', async () => {
      const { tokens } = await login(t, email);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        cookies: { df_refresh: tokens.refreshToken },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('the absolute session lifetime (SESSION_MAX_DAYS, 30)', () => {
    const ageSession = (sid: string, days: number) =>
      t.database.sql.query(`UPDATE sessions SET created_at = now() - interval '${days} days' WHERE id = $1`, [sid]);

    it('a refresh never extends a session past 30 days after its sign-in, and after that it is refused', async () => {
      const { tokens } = await login(t, email, undefined, { rememberMe: true });
      const sid = jwtClaims(tokens.accessToken).sid as string;
      await ageSession(sid, 29);
      const late = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(late.statusCode).toBe(200);
      // One day left: the cookie and the session end with it, whatever the remember-me life of 30 days.
      const maxAge = Number(refreshCookie(late)!.maxAge);
      expect(maxAge).toBeLessThanOrEqual(86_400);
      expect(maxAge).toBeGreaterThan(86_000);
      const [row] = await t.database.sql.query<{ expires_at: Date }>('SELECT expires_at FROM sessions WHERE id = $1', [
        sid,
      ]);
      expect(new Date(row!.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);

      await ageSession(sid, 30);
      const over = await post(t, '/refresh', { refreshToken: tokensOf(late).refreshToken });
      expect(over.statusCode).toBe(401);
      expect(over.json().error).toMatch(/maximum length/);
    });
  });

  describe('401', () => {
    it('a reused refresh token revokes the whole session; the rotated token fails too', async () => {
      const { tokens } = await login(t, email);
      const rotated = tokensOf(await post(t, '/refresh', { refreshToken: tokens.refreshToken }));
      // Spent longer ago than the grace for a browser that lost its answer (REFRESH_REUSE_GRACE_SECONDS, 10).
      await spentSecondsAgo(tokens.refreshToken, 11);

      const reuse = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toMatchObject({ code: 'INVALID_TOKEN', error: expect.stringMatching(/already used/) });
      const cleared = refreshCookie(reuse);
      expect(cleared?.value).toBe('');

      const sid = jwtClaims(tokens.accessToken).sid;
      const [s] = await t.database.sql.query<{ revoked_at: Date | null; revoked_reason: string }>(
        'SELECT revoked_at, revoked_reason FROM sessions WHERE id = $1',
        [sid],
      );
      expect(s!.revoked_at).not.toBeNull();
      expect(s!.revoked_reason).toBe('reuse_detected');

      const next = await post(t, '/refresh', { refreshToken: rotated.refreshToken });
      expect(next.statusCode).toBe(401);
      expect(next.json().code).toBe('INVALID_TOKEN');
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(rotated.accessToken) });
      expect(me.statusCode).toBe(401);
      const audit = await t.database.sql.query(
        "SELECT 1 FROM audit_log WHERE action = 'refresh_token_reuse' AND details LIKE $1",
        [`%${sid}%`],
      );
      expect(audit).toHaveLength(1);
    });

    it('a token spent more than 10 s ago is reuse, even when the session has refreshed since', async () => {
      const { tokens } = await login(t, email);
      const first = tokensOf(await post(t, '/refresh', { refreshToken: tokens.refreshToken }));
      await spentSecondsAgo(tokens.refreshToken, 11);
      tokensOf(await post(t, '/refresh', { refreshToken: first.refreshToken }));
      const reuse = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().error).toMatch(/already used/);
    });

    it('an expired session is refused', async () => {
      const { tokens } = await login(t, email);
      await t.database.sql.query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = $1", [
        jwtClaims(tokens.accessToken).sid,
      ]);
      const res = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', error: expect.stringMatching(/expired/) });
    });

    it('an unknown token, and no token at all, are refused', async () => {
      const unknown = await post(t, '/refresh', { refreshToken: 'x'.repeat(43) });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().code).toBe('INVALID_TOKEN');
      const none = await post(t, '/refresh', {});
      expect(none.statusCode).toBe(401);
      expect(none.json().error).toMatch(/No refresh token/);
    });

    it('a deactivated account cannot refresh', async () => {
      const other = await registerAndVerify(t);
      const { tokens } = await login(t, other.email);
      await t.database.sql.query('UPDATE users SET is_active = false WHERE id = $1', [other.userId]);
      const res = await post(t, '/refresh', { refreshToken: tokens.refreshToken });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ACCOUNT_DISABLED');
    });
  });
});

describe('POST /api/v1/auth/logout', () => {
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await buildTestApp();
    ({ email } = await registerAndVerify(t));
  });
  afterAll(() => t.close());

  const revokedReason = async (accessToken: string) =>
    (
      await t.database.sql.query<{ revoked_reason: string | null }>(
        'SELECT revoked_reason FROM sessions WHERE id = $1',
        [jwtClaims(accessToken).sid],
      )
    )[0]!.revoked_reason;

  it('with the refresh token in the body: ends the session and clears the cookie', async () => {
    const { tokens } = await login(t, email);
    const res = await post(t, '/logout', { refreshToken: tokens.refreshToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Signed out.' });
    const cookie = refreshCookie(res);
    expect(cookie).toMatchObject({ value: '', path: '/api/v1/auth' });
    expect(await revokedReason(tokens.accessToken)).toBe('logout');
    expect((await post(t, '/refresh', { refreshToken: tokens.refreshToken })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(tokens.accessToken) })).statusCode,
    ).toBe(401);
  });

  it('with the cookie', async () => {
    const { tokens } = await login(t, email);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      payload: {},
      cookies: { df_refresh: tokens.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    expect(await revokedReason(tokens.accessToken)).toBe('logout');
  });

  it('with only the access token', async () => {
    const { tokens } = await login(t, email);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(tokens.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(await revokedReason(tokens.accessToken)).toBe('logout');
  });

  it('with nothing, or a dead token: still 200, nothing else ends', async () => {
    const { tokens } = await login(t, email);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
    expect((await post(t, '/logout', { refreshToken: 'not-a-token' })).statusCode).toBe(200);
    expect((await post(t, '/logout', {}, { authorization: 'Bearer not.a.jwt' })).statusCode).toBe(200);
    expect(await revokedReason(tokens.accessToken)).toBeNull();
  });
});
