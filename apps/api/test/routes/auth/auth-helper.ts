import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { linkIn, outboxMails, type TestApp } from '../../helper';

/** A password the strength rule accepts. */
export const PASSWORD = 'Kangaroo-Orbit-42';
export const OTHER_PASSWORD = 'Violet-Harbour-73';

export const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

export function registerBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Ada Lovelace',
    email: uniqueEmail(),
    company: 'Analytical Engines',
    password: PASSWORD,
    confirmPassword: PASSWORD,
    acceptTerms: true,
    ...overrides,
  };
}

/** POST to the auth API; answers once the mails the call queued have been written (mail is sent after answering). */
export async function post(t: TestApp, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/auth${url}`, payload: payload as object, headers });
  await t.app.mailer.settled();
  return res;
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** The token of the newest mail to `email` whose link starts with `path` ('/verify-email', '/reset-password'). */
export function mailedToken(t: TestApp, email: string, path: string): string {
  const mails = outboxMails(t.dataDir).filter((m) => m.includes(`To: ${email}`));
  expect(mails.length, `a mail to ${email}`).toBeGreaterThan(0);
  // The newest mail with such a link (other mails, e.g. "you already have an account", may have come after it).
  for (const mail of mails.reverse()) {
    try {
      return new URL(linkIn(mail, `${path}?token=`)).searchParams.get('token')!;
    } catch {
      /* not this one */
    }
  }
  throw new Error(`no mail to ${email} with a ${path} link`);
}

export const mailsTo = (t: TestApp, email: string) => outboxMails(t.dataDir).filter((m) => m.includes(`To: ${email}`));

/** Register, follow the verification mail, and return the signed-in answer. */
export async function registerAndVerify(t: TestApp, overrides: Record<string, unknown> = {}) {
  const body = registerBody(overrides);
  const reg = await post(t, '/register', body);
  expect(reg.statusCode, reg.body).toBe(201);
  const token = mailedToken(t, body.email as string, '/verify-email');
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email?token=${token}` });
  expect(res.statusCode, res.body).toBe(200);
  return { email: body.email as string, password: body.password as string, userId: res.json().data.user.id as string };
}

export async function login(
  t: TestApp,
  email: string,
  password = PASSWORD,
  extra: { rememberMe?: boolean; userAgent?: string; ip?: string } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password, rememberMe: extra.rememberMe },
    headers: extra.userAgent ? { 'user-agent': extra.userAgent } : {},
    remoteAddress: extra.ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { res, tokens: tokensOf(res), cookie: refreshCookie(res) };
}

/** The body's tokens, with the refresh token from the df_refresh cookie (the only place it travels). */
export function tokensOf(res: LightMyRequestResponse) {
  const body = res.json().data.tokens as { accessToken: string; expiresIn: number; tokenType: string };
  return { ...body, refreshToken: refreshCookie(res)?.value as string };
}

export const refreshCookie = (res: LightMyRequestResponse) => cookieNamed(res, 'df_refresh');

/** The device cookie a sign-in leaves in the browser (a known device of the account). */
export const deviceCookie = (res: LightMyRequestResponse) => cookieNamed(res, 'df_device');

function cookieNamed(res: LightMyRequestResponse, name: string) {
  return res.cookies.find((c) => c.name === name) as
    | {
        name: string;
        value: string;
        path?: string;
        maxAge?: number;
        httpOnly?: boolean;
        secure?: boolean;
        sameSite?: string;
      }
    | undefined;
}

/** Claims of a JWT, unverified (tests only). */
export const jwtClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
