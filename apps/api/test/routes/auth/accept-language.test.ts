import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, post, registerBody } from './auth-helper';

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
    expect(json.details.fields).toContainEqual({
      field: 'confirmPassword',
      message: 'Les mots de passe ne correspondent pas',
    });
  });

  it('answers in English when asked, and as written without the header', async () => {
    const body = { ...registerBody(), email: 'not-an-email' };
    const en = (await register(body, 'en')).json();
    const fr = (await register(body, 'fr')).json();
    const none = (await register(body)).json();
    expect([en.code, fr.code, none.code]).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(en.details.fields).toContainEqual({ field: 'email', message: 'Invalid email format' });
    expect(fr.details.fields).toContainEqual({ field: 'email', message: "Format d'email invalide" });
    expect(none.details.fields).toContainEqual({ field: 'email', message: "Format d'email invalide" });
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
