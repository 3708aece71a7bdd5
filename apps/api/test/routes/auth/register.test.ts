import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, mailsTo, mailedToken, post, refreshCookie, registerBody, uniqueEmail } from './auth-helper';

describe('POST /api/v1/auth/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  describe('201', () => {
    it('creates an unverified account, answers without tokens and mails a verification link', async () => {
      const body = registerBody({ email: '  Ada.Mixed@Example.COM ' });
      const res = await post(t, '/register', body);
      expect(res.statusCode).toBe(201);
      const json = res.json();
      expect(json.success).toBe(true);
      expect(json.message).toMatch(/check your email/i);
      expect(json.data).toEqual({});
      expect(refreshCookie(res)).toBeUndefined();
      const [user] = await t.database.sql.query<{
        name: string;
        company: string;
        role: string;
        email_verified_at: Date | null;
        registration_source: string;
      }>('SELECT name, company, role, email_verified_at, registration_source FROM users WHERE email = $1', [
        'ada.mixed@example.com',
      ]);
      expect(user).toMatchObject({
        name: 'Ada Lovelace',
        company: 'Analytical Engines',
        role: 'user',
        email_verified_at: null,
        // A direct API call (no X-DocFlow-Client: dashboard): the user signed up through the API.
        registration_source: 'api',
      });
      const mails = mailsTo(t, 'ada.mixed@example.com');
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain('Subject: Verify your DocFlow e-mail address');
      expect(mailedToken(t, 'ada.mixed@example.com', '/verify-email')).toMatch(/^[\w-]{43}$/);
      const [row] = await t.database.sql.query<{ expires_at: Date; created_at: Date }>(
        'SELECT v.expires_at, v.created_at FROM email_verifications v JOIN users u ON u.id = v.user_id WHERE u.email = $1',
        ['ada.mixed@example.com'],
      );
      const hours = (new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime()) / 3600_000;
      expect(hours).toBeCloseTo(24, 1);
    });

    it('accepts a missing or empty company', async () => {
      const companyOf = async (email: string) =>
        (
          await t.database.sql.query<{ company: string | null }>('SELECT company FROM users WHERE email = $1', [email])
        )[0]?.company;
      const a = registerBody({ company: undefined });
      expect((await post(t, '/register', a)).statusCode).toBe(201);
      expect(await companyOf(a.email)).toBeNull();
      const b = registerBody({ company: '' });
      expect((await post(t, '/register', b)).statusCode).toBe(201);
      expect(await companyOf(b.email)).toBeNull();
    });
  });

  describe('an address that already has an account', () => {
    it('gets the same answer as a new one; its owner is mailed that someone tried, and nothing changes', async () => {
      const body = registerBody();
      const first = await post(t, '/register', body);
      const again = await post(t, '/register', { ...body, email: body.email.toUpperCase(), name: 'Someone Else' });
      expect(again.statusCode).toBe(first.statusCode);
      expect(again.json()).toEqual(first.json());
      const mails = mailsTo(t, body.email);
      expect(mails).toHaveLength(2);
      expect(mails[1]).toContain('Subject: You already have a DocFlow account');
      const rows = await t.database.sql.query<{ name: string }>('SELECT name FROM users WHERE email = $1', [
        body.email,
      ]);
      expect(rows).toEqual([{ name: body.name }]);
    });
  });

  describe('422', () => {
    it('refuses a weak password, naming what is missing', async () => {
      const res = await post(t, '/register', registerBody({ password: 'Password1!', confirmPassword: 'Password1!' }));
      expect(res.statusCode).toBe(422);
      const json = res.json();
      expect(json.code).toBe('WEAK_PASSWORD');
      expect(json.error).toMatch(/too weak.*too common/i);
      expect(json.details.validation.requirements.notCommon).toBe(false);

      const short = await post(t, '/register', registerBody({ password: 'xK3!q', confirmPassword: 'xK3!q' }));
      expect(short.json()).toMatchObject({
        code: 'WEAK_PASSWORD',
        error: expect.stringMatching(/at least 8 characters/),
      });
    });

    it('refuses a password containing the name or e-mail', async () => {
      const email = uniqueEmail('lovelace');
      const res = await post(
        t,
        '/register',
        registerBody({ email, password: 'Lovelace-2024-x', confirmPassword: 'Lovelace-2024-x' }),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'WEAK_PASSWORD', error: expect.stringMatching(/name or e-mail/) });
    });

    it("answers 'Passwords do not match' when the confirmation differs", async () => {
      const res = await post(t, '/register', registerBody({ confirmPassword: `${PASSWORD}x` }));
      expect(res.statusCode).toBe(422);
      const json = res.json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(json.error).toContain('Passwords do not match');
      expect(json.details.fields).toContainEqual(
        expect.objectContaining({ field: 'confirmPassword', message: 'Passwords do not match' }),
      );
    });

    it("answers 'Please accept the terms and conditions' when terms are refused or missing", async () => {
      for (const acceptTerms of [false, undefined]) {
        const res = await post(t, '/register', registerBody({ acceptTerms }));
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe('VALIDATION_ERROR');
        expect(res.json().error).toContain('Please accept the terms and conditions');
      }
    });

    it('names each missing or malformed field', async () => {
      const res = await post(t, '/register', {
        email: 'not-an-email',
        password: PASSWORD,
        confirmPassword: 'other',
        acceptTerms: false,
      });
      expect(res.statusCode).toBe(422);
      const fields = res.json().details.fields.map((f: { field: string }) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'confirmPassword', 'acceptTerms']));
    });
  });

  describe('400 / 413', () => {
    it('answers 400 INVALID_JSON to a malformed body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "Ada", ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'INVALID_JSON' });
    });

    it('answers 413 to a body over BODY_LIMIT (1 MiB)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(registerBody({ company: 'x'.repeat(1_100_000) })),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});

describe('POST /api/v1/auth/register with EMAIL_VERIFICATION=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { EMAIL_VERIFICATION: 'false' } });
  });
  afterAll(() => t.close());

  it('signs the user in at once: tokens, cookie, no mail; login works without verification', async () => {
    const body = registerBody();
    const res = await post(t, '/register', body);
    expect(res.statusCode).toBe(201);
    const { user, tokens } = res.json().data;
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(refreshCookie(res)?.value).toMatch(/^[\w-]{43}$/);
    expect(tokens.refreshToken).toBeUndefined(); // the cookie only, never the body
    expect(user.emailVerified).toBe(false);
    expect(mailsTo(t, body.email)).toHaveLength(0);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.json().data.user.email).toBe(body.email);
    expect((await post(t, '/login', { email: body.email, password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('POST /api/v1/auth/register when the mail server fails', () => {
  let t: TestApp;
  let failing = true;
  const sent: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp({
      mailer: {
        mode: 'smtp',
        async send(mail) {
          if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
          sent.push(mail.to);
        },
      },
    });
  });
  afterAll(() => t.close());

  it('answers as always, without waiting for the mail server; the mail goes out once the server is back', async () => {
    const body = registerBody();
    const res = await post(t, '/register', body);
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatch(/check your email/i);
    failing = false;
    // The queue retries the first delivery after 2 s.
    for (let i = 0; i < 60 && !sent.includes(body.email); i++) await new Promise((r) => setTimeout(r, 100));
    expect(sent).toEqual([body.email]);
  });
});

describe('account enumeration: the answers do not depend on whether an address has an account', () => {
  let t: TestApp;
  // A mail server that accepts nothing until the tests are over: an answer that waited for its mail would never
  // come (the test would time out), whatever the machine's speed. The mails handed to it are counted.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const handed: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp({
      mailer: {
        mode: 'smtp',
        send: (mail) => {
          handed.push(String(mail.to));
          return held;
        },
      },
    });
  });
  afterAll(async () => {
    release();
    await t.close();
  });

  const answer = async (path: string, payload: object) => ({
    res: await t.app.inject({ method: 'POST', url: `/api/v1/auth${path}`, payload }),
  });
  /** Mails are handed to the server in the background: wait until `email`'s is (it is then held there). */
  const handedTo = async (email: string) => {
    const seen = () => handed.some((to) => to.includes(email));
    for (let i = 0; i < 100 && !seen(); i++) await new Promise((r) => setTimeout(r, 50));
    return seen();
  };

  it('forgot-password: the same answer, and neither waits for the mail', async () => {
    const known = registerBody();
    expect((await answer('/register', known)).res.statusCode).toBe(201);
    const a = await answer('/forgot-password', { email: known.email });
    const b = await answer('/forgot-password', { email: uniqueEmail('nobody') });
    expect(a.res.statusCode).toBe(200);
    expect(b.res.statusCode).toBe(200);
    expect(a.res.json()).toEqual(b.res.json());
    // The known address's mail was sent and is still held: the answer did not wait for it.
    expect(await handedTo(known.email)).toBe(true);
  });

  it('register: the same status and body for a taken address, and neither waits for the mail', async () => {
    const body = registerBody();
    const fresh = await answer('/register', body);
    const taken = await answer('/register', { ...body, name: 'Someone Else' });
    expect(taken.res.statusCode).toBe(fresh.res.statusCode);
    expect(taken.res.json()).toEqual(fresh.res.json());
    // Both answered while their mails (verification, then "you already have an account") are held.
    expect(await handedTo(body.email)).toBe(true);
  });
});
