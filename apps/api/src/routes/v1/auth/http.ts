import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZErrorResponse } from '@docflow/contracts';
import type { ClientInfo } from '../../../services/accounts/context';

/** The web app's refresh token: httpOnly, SameSite=Strict, Secure behind https, sent only to the auth routes. */
export const REFRESH_COOKIE = 'df_refresh';
const COOKIE_PATH = '/api/v1/auth';

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip || null,
  userAgent: request.headers['user-agent'] ?? null,
});

export function setRefreshCookie(
  app: FastifyInstance,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.secureCookies,
    path: COOKIE_PATH,
    maxAge: maxAgeSeconds,
  });
}

/**
 * The device cookie (services/device-cookies.ts): a browser's proof that it signed in to an account before, so that
 * its sign-ins are judged by its own failures. Same flags as the refresh cookie, sent to the auth routes only.
 */
export const DEVICE_COOKIE = 'df_device';

export function setDeviceCookie(app: FastifyInstance, reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  reply.setCookie(DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.secureCookies,
    path: COOKIE_PATH,
    maxAge: maxAgeSeconds,
  });
}

export const deviceCookieFrom = (request: FastifyRequest): string | undefined =>
  request.cookies?.[DEVICE_COOKIE] || undefined;

export function clearRefreshCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.secureCookies,
    path: COOKIE_PATH,
  });
}

/** The refresh token from the body (API clients) or the cookie (the web app). */
export function refreshTokenFrom(request: FastifyRequest, fromBody?: string): string | undefined {
  return fromBody || request.cookies?.[REFRESH_COOKIE] || undefined;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  return m?.[1]?.trim() || undefined;
}

/** `{ 401: ZErrorResponse, 429: ZErrorResponse, … }` for a route's documented error answers. */
export const errorResponses = <const S extends number>(...statuses: S[]) =>
  Object.fromEntries(statuses.map((s) => [s, ZErrorResponse])) as Record<S, typeof ZErrorResponse>;

export const authTags = ['auth'];
export const signedInSecurity = [{ accessToken: [] }];
