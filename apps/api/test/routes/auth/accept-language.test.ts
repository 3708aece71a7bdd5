import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, bearer, mailedToken, mailsTo, post, registerBody } from './auth-helper';

describe('Accept-Language on the account routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const register = (body: unknown, lang?: string) =>
    post(t, '/register', body, lang ? { 'accept-language': lang } : {});

  it('answers a validation error in French, with the same code and field paths', async () => {
    const res = await register(registerBody({ confirmPassword: `${PASSWORD}x` }), 'fr-FR,fr;q=0.9');
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-language']).toBe('fr');
    const json = res.json();
    expect(json.code).toBe('VALIDATION_ERROR');
    expect(json.details.fields).toContainEqual(
      expect.objectContaining({ field: 'confirmPassword', message: 'Les mots de passe ne correspondent pas' }),
    );
  });

  it('answers in English when asked, and as written without the header', async () => {
    const body = { ...registerBody(), email: 'not-an-email' };
    const en = (await register(body, 'en')).json();
    const fr = (await register(body, 'fr')).json();
    const none = (await register(body)).json();
    expect([en.code, fr.code, none.code]).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(en.details.fields).toContainEqual(
      expect.objectContaining({ field: 'email', message: 'Invalid email format' }),
    );
    expect(fr.details.fields).toContainEqual(
      expect.objectContaining({ field: 'email', message: "Format d'email invalide" }),
    );
    expect(none.details.fields).toContainEqual(
      expect.objectContaining({ field: 'email', message: "Format d'email invalide" }),
    );
  });

  it("answers the sign-up's check-your-mailbox message in the caller's language", async () => {
    const fr = await register(registerBody(), 'fr-FR,fr;q=0.9');
    expect(fr.statusCode).toBe(201);
    expect(fr.json().message).toBe(
      'Vérifiez votre boîte mail : nous vous avons envoyé un lien pour activer votre compte.',
    );
    expect(fr.headers['content-language']).toBe('fr');
    expect(fr.headers.vary).toContain('Accept-Language');
    const en = await register(registerBody(), 'en-GB');
    expect(en.json().message).toBe('Check your email: we sent you a link to activate your account.');
    const none = await register(registerBody());
    expect(none.json().message).toBe('Check your email: we sent you a link to activate your account.');
  });

  it('answers a wrong password in the caller’s language', async () => {
    const login = (lang: string) =>
      post(t, '/login', { email: 'nobody@example.com', password: 'Wrong-password-1' }, { 'accept-language': lang });
    const en = await login('en-US');
    const fr = await login('fr');
    expect([en.statusCode, en.json().code]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect(en.json().error).toBe('Incorrect email or password');
    expect(fr.json().error).toBe('Email ou mot de passe incorrect');
  });
});

describe('the language of the first mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** Register in a language, follow the mail, and read the signed-in user's language. */
  async function signUp(lang?: string) {
    const body = registerBody();
    const res = await post(t, '/register', body, lang ? { 'accept-language': lang } : {});
    expect(res.statusCode, res.body).toBe(201);
    const [mail] = mailsTo(t, body.email);
    const token = mailedToken(t, body.email, '/verify-email');
    const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email?token=${token}` });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: bearer(verified.json().data.tokens.accessToken),
    });
    return { mail: mail!, language: me.json().data.user.language as string | null };
  }

  it("is the sign-up request's Accept-Language, stored as the user's language", async () => {
    const fr = await signUp('fr-FR,fr;q=0.9,en;q=0.8');
    expect(fr.mail).toMatch(/^Subject: (=\?UTF-8\?\w\?.*\?=|Vérifiez votre adresse e-mail DocFlow)$/im);
    expect(fr.mail).not.toContain('Subject: Verify');
    expect(fr.mail).toContain('Bonjour Ada Lovelace');
    expect(fr.mail).not.toContain('Hello Ada Lovelace');
    expect(fr.language).toBe('fr');

    const en = await signUp('en-GB,en;q=0.9');
    expect(en.mail).toContain('Subject: Verify your DocFlow e-mail address');
    expect(en.mail).toContain('Hello Ada Lovelace');
    expect(en.language).toBe('en');
  });

  it('is English, with no language stored, when the request names none', async () => {
    const none = await signUp();
    expect(none.mail).toContain('Hello Ada Lovelace');
    expect(none.language).toBeNull();
  });
});
