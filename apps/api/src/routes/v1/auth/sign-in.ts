import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZLoginRequest,
  ZLogoutRequest,
  ZMessageResponse,
  ZRefreshRequest,
  ZSignedInResponse,
  ZTokensResponse,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import type { LoginThrottle } from '../../../services/login-throttle';
import type { DeviceCookies } from '../../../services/device-cookies';
import { login } from '../../../services/accounts/login';
import { logout } from '../../../services/accounts/logout';
import { rotateRefreshToken } from '../../../services/accounts/rotate-refresh-token';
import {
  authTags,
  bearerToken,
  clearRefreshCookie,
  clientInfo,
  deviceCookieFrom,
  errorResponses,
  refreshTokenFrom,
  setDeviceCookie,
  setRefreshCookie,
} from './http';

/** Login, token refresh and logout. */
export const signInRoutes: FastifyPluginAsyncZod<{ throttle: LoginThrottle; devices: DeviceCookies }> = async (
  app,
  { throttle, devices },
) => {
  app.post(
    '/login',
    {
      schema: {
        tags: authTags,
        summary: 'Sign in with e-mail and password',
        description:
          'Opens a session and returns an access token (JWT) and a refresh token, also set as the httpOnly df_refresh ' +
          'cookie. rememberMe lengthens the refresh life. 401 INVALID_CREDENTIALS (same for an unknown e-mail), ' +
          '403 EMAIL_NOT_VERIFIED or ACCOUNT_DISABLED (only after a right password), 429 TOO_MANY_ATTEMPTS with ' +
          'Retry-After after repeated failures. A sign-in also sets the httpOnly df_device cookie (signed, bound to ' +
          'the account): a later sign-in to that account presenting it is judged by the failures of that device ' +
          'alone, not by the daily cap of the address nor the lock of the account.',
        body: ZLoginRequest,
        response: { 200: ZSignedInResponse, ...errorResponses(400, 401, 403, 413, 422, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await login(app, request.body, clientInfo(request), {
        throttle,
        devices,
        deviceCookie: deviceCookieFrom(request),
      });
      setRefreshCookie(app, reply, signedIn.refreshToken, signedIn.refreshTtlSeconds);
      if (signedIn.deviceCookie) setDeviceCookie(app, reply, signedIn.deviceCookie, devices.maxAgeSeconds);
      return { success: true as const, message: 'Signed in.', data: { user: signedIn.user, tokens: signedIn.tokens } };
    },
  );

  app.post(
    '/refresh',
    {
      schema: {
        tags: authTags,
        summary: 'Exchange the refresh token for a new token pair',
        description:
          'The refresh token comes from the df_refresh cookie (httpOnly; no answer ever puts it in a body), or from ' +
          'the body for a client that read it from Set-Cookie. It rotates on every use; presenting a ' +
          'used one again signs the whole session out (reuse detection). 401 INVALID_TOKEN when unknown, used, ' +
          'expired or revoked.',
        body: ZRefreshRequest.nullish(),
        response: { 200: ZTokensResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const token = refreshTokenFrom(request, request.body?.refreshToken);
      if (!token)
        throw new AppError(
          'INVALID_TOKEN',
          'No refresh token: send it as refreshToken in the body or in the df_refresh cookie',
        );
      try {
        const rotated = await rotateRefreshToken(app, token, clientInfo(request));
        setRefreshCookie(app, reply, rotated.refreshToken, rotated.refreshTtlSeconds);
        return { success: true as const, data: { tokens: rotated.tokens } };
      } catch (err) {
        // The cookie names a dead session: drop it so the browser stops sending it.
        if (err instanceof AppError && err.statusCode === 401) clearRefreshCookie(app, reply);
        throw err;
      }
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: authTags,
        summary: 'Sign out this session',
        description:
          'Ends the session named by the refresh token (body or cookie), or else by the access token. Always 200; the ' +
          'df_refresh cookie is cleared.',
        body: ZLogoutRequest.nullish(),
        response: { 200: ZMessageResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await logout(
        app,
        { refreshToken: refreshTokenFrom(request, request.body?.refreshToken), accessToken: bearerToken(request) },
        clientInfo(request),
      );
      clearRefreshCookie(app, reply);
      return { success: true as const, message: 'Signed out.' };
    },
  );
};
