import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { bearer, jwtClaims, login, post, registerAndVerify } from './auth-helper';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('account routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, accessToken?: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/auth${url}`, headers: accessToken ? bearer(accessToken) : {} });

  describe('GET /me', () => {
    it('returns the signed-in user', async () => {
      const { email, userId } = await registerAndVerify(t);
      const { tokens } = await login(t, email);
      const res = await get('/me', tokens.accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({
        id: userId,
        email,
        plan: 'free',
        plans: expect.any(Array),
        activeplan: null,
      });
    });

    it('401 without or with a bad token; 403 for a deactivated account', async () => {
      expect((await get('/me')).json().code).toBe('UNAUTHORIZED');
      const bad = await get('/me', 'abc.def.ghi');
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('INVALID_TOKEN');
      const { email, userId } = await registerAndVerify(t);
      const { tokens } = await login(t, email);
      await t.database.sql.query('UPDATE users SET is_active = false WHERE id = $1', [userId]);
      const disabled = await get('/me', tokens.accessToken);
      expect(disabled.statusCode).toBe(403);
      expect(disabled.json().code).toBe('ACCOUNT_DISABLED');
    });

    it('reflects users.active_plan in activeplan', async () => {
      const { email, userId } = await registerAndVerify(t);
      await t.database.sql.query("UPDATE users SET active_plan = 'pro' WHERE id = $1", [userId]);
      const { tokens } = await login(t, email);
      expect((await get('/me', tokens.accessToken)).json().data.user.activeplan).toBe('pro');
    });
  });

  describe('PATCH /me', () => {
    const patch = (accessToken: string, payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/v1/auth/me',
        headers: bearer(accessToken),
        payload: payload as object,
      });

    it('updates the settings fields and leaves absent ones', async () => {
      const { email } = await registerAndVerify(t);
      const { tokens } = await login(t, email);
      const res = await patch(tokens.accessToken, {
        name: 'Ada King',
        country: 'United Kingdom',
        timezone: 'Europe/London',
        language: 'en-GB',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({
        name: 'Ada King',
        company: 'Analytical Engines',
        country: 'United Kingdom',
        timezone: 'Europe/London',
        language: 'en-GB',
      });
      const cleared = await patch(tokens.accessToken, { company: null, country: '' });
      expect(cleared.json().data.user).toMatchObject({
        name: 'Ada King',
        company: null,
        country: null,
        timezone: 'Europe/London',
      });
      expect((await get('/me', tokens.accessToken)).json().data.user.company).toBeNull();
      expect((await patch(tokens.accessToken, {})).json().data.user.name).toBe('Ada King');
    });

    it('422 for an unknown time zone, a bad language tag or a one-letter name', async () => {
      const { email } = await registerAndVerify(t);
      const { tokens } = await login(t, email);
      for (const body of [{ timezone: 'Mars/Olympus' }, { language: 'not a language' }, { name: 'A' }]) {
        const res = await patch(tokens.accessToken, body);
        expect(res.statusCode).toBe(422);
        expect(res.json().details.fields[0].field).toBe(Object.keys(body)[0]);
      }
    });
  });

  describe('sessions', () => {
    it('GET /sessions lists the active sessions with a readable device and the current one marked', async () => {
      const { email } = await registerAndVerify(t);
      await login(t, email, undefined, { userAgent: SAFARI_IPHONE, ip: '192.0.2.5' });
      const ended = await login(t, email);
      await post(t, '/logout', { refreshToken: ended.tokens.refreshToken });
      const { tokens } = await login(t, email, undefined, { userAgent: FIREFOX_WINDOWS });
      const res = await get('/sessions', tokens.accessToken);
      expect(res.statusCode).toBe(200);
      const sessions = res.json().data.sessions as Array<Record<string, unknown>>;
      // The verification opened one session; the logged-out one is not listed.
      expect(sessions).toHaveLength(3);
      expect(sessions[0]).toMatchObject({
        id: jwtClaims(tokens.accessToken).sid,
        device: 'Firefox on Windows',
        current: true,
        userAgent: FIREFOX_WINDOWS,
      });
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions).toContainEqual(
        expect.objectContaining({ device: 'Safari on iPhone', ip: '192.0.2.5', current: false }),
      );
      for (const s of sessions)
        for (const k of ['createdAt', 'lastUsedAt', 'expiresAt'])
          expect(new Date(s[k] as string).getTime()).not.toBeNaN();
    });

    it('DELETE /sessions/:id revokes one of mine; its refresh token stops working', async () => {
      const { email } = await registerAndVerify(t);
      const other = await login(t, email);
      const { tokens } = await login(t, email);
      const sid = jwtClaims(other.tokens.accessToken).sid;
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${sid}`,
        headers: bearer(tokens.accessToken),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect((await post(t, '/refresh', { refreshToken: other.tokens.refreshToken })).statusCode).toBe(401);
      expect((await get('/me', other.tokens.accessToken)).statusCode).toBe(401);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${sid}`,
        headers: bearer(tokens.accessToken),
      });
      expect(again.statusCode).toBe(404);
      const [audit] = await t.database.sql.query<{ details: string }>(
        "SELECT details FROM audit_log WHERE action = 'session_revoked' AND details LIKE $1",
        [`%${sid}%`],
      );
      expect(audit!.details).toContain('revoked_by_user');
    });

    it("DELETE another user's session or an unknown id: 404; a malformed id: 422", async () => {
      const alice = await registerAndVerify(t);
      const bob = await registerAndVerify(t);
      const a = await login(t, alice.email);
      const b = await login(t, bob.email);
      const bobSid = jwtClaims(b.tokens.accessToken).sid;
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${bobSid}`,
        headers: bearer(a.tokens.accessToken),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      expect((await get('/me', b.tokens.accessToken)).statusCode).toBe(200);
      const unknown = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/auth/sessions/00000000-0000-4000-8000-000000000000',
        headers: bearer(a.tokens.accessToken),
      });
      expect(unknown.statusCode).toBe(404);
      const malformed = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/auth/sessions/nope',
        headers: bearer(a.tokens.accessToken),
      });
      expect(malformed.statusCode).toBe(422);
    });

    it('DELETE of the current session signs this device out and clears the cookie', async () => {
      const { email } = await registerAndVerify(t);
      const { tokens } = await login(t, email);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${jwtClaims(tokens.accessToken).sid}`,
        headers: bearer(tokens.accessToken),
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'df_refresh')?.value).toBe('');
      expect((await get('/me', tokens.accessToken)).statusCode).toBe(401);
    });

    it('POST /revoke-all-sessions ends all but the current one and counts them', async () => {
      const { email } = await registerAndVerify(t); // one session from the verification
      const others = [await login(t, email), await login(t, email)];
      const { tokens } = await login(t, email);
      const res = await post(t, '/revoke-all-sessions', undefined, bearer(tokens.accessToken));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { revokedCount: 3 } });
      for (const o of others)
        expect((await post(t, '/refresh', { refreshToken: o.tokens.refreshToken })).statusCode).toBe(401);
      const list = (await get('/sessions', tokens.accessToken)).json().data.sessions;
      expect(list).toHaveLength(1);
      expect(list[0].current).toBe(true);
      const again = await post(t, '/revoke-all-sessions', undefined, bearer(tokens.accessToken));
      expect(again.json().data.revokedCount).toBe(0);
    });

    it('the session routes need an access token', async () => {
      expect((await get('/sessions')).statusCode).toBe(401);
      expect((await post(t, '/revoke-all-sessions')).statusCode).toBe(401);
    });
  });

  describe('OpenAPI', () => {
    it('documents every auth route under the auth tag, with error answers', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api-docs/openapi.json' })).json();
      const ops = Object.entries(
        doc.paths as Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>,
      )
        .filter(([p]) => p.startsWith('/api/v1/auth/'))
        .flatMap(([p, methods]) =>
          Object.entries(methods).map(([m, op]) => ({ route: `${m.toUpperCase()} ${p}`, op })),
        );
      expect(ops.map((o) => o.route).sort()).toEqual(
        [
          'DELETE /api/v1/auth/sessions/{id}',
          'GET /api/v1/auth/me',
          'GET /api/v1/auth/sessions',
          'GET /api/v1/auth/verify-email',
          'PATCH /api/v1/auth/me',
          'POST /api/v1/auth/change-password',
          'POST /api/v1/auth/forgot-password',
          'POST /api/v1/auth/login',
          'POST /api/v1/auth/logout',
          'POST /api/v1/auth/refresh',
          'POST /api/v1/auth/register',
          'POST /api/v1/auth/resend-verification',
          'POST /api/v1/auth/reset-password',
          'POST /api/v1/auth/revoke-all-sessions',
          'POST /api/v1/auth/validate-password',
        ].sort(),
      );
      for (const { route, op } of ops) {
        expect(op.tags, route).toEqual(['auth']);
        expect(
          Object.keys(op.responses).some((s) => Number(s) >= 400),
          route,
        ).toBe(true);
      }
    });
  });
});
