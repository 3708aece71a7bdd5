import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZChangePasswordRequest,
  ZEmailRequest,
  ZMessageResponse,
  ZResetPasswordRequest,
  ZRevokeAllResponse,
  ZSignedInResponse,
  ZValidatePasswordRequest,
  ZValidatePasswordResponse,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import type { LoginThrottle } from '../../../services/login-throttle';
import type { DeviceCookies } from '../../../services/device-cookies';
import { checkPasswordStrength } from '../../../services/password-strength';
import { changePassword } from '../../../services/accounts/change-password';
import { requestPasswordReset } from '../../../services/accounts/request-password-reset';
import { resetPassword } from '../../../services/accounts/reset-password';
import { authTags, clientInfo, deviceCookieFrom, errorResponses, setRefreshCookie, signedInSecurity } from './http';
import type { AuthQuotas } from './index';

/** Forgotten password, reset, change, and the strength meter. */
export const passwordRoutes: FastifyPluginAsyncZod<{
  throttle: LoginThrottle;
  devices: DeviceCookies;
  quotas: AuthQuotas;
}> = async (app, { throttle, devices, quotas }) => {
  app.post(
    '/forgot-password',
    {
      schema: {
        tags: authTags,
        summary: 'Mail a password-reset link',
        description:
          'Always the same answer, whether or not an account exists. The link (valid 1 h, single use) points to ' +
          '/reset-password?token=…; at most one mail per minute per account.',
        body: ZEmailRequest,
        response: { 200: ZMessageResponse, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => {
      await quotas.take('mail', request.ip);
      const outcome = await requestPasswordReset(app, request.body.email, clientInfo(request));
      request.log.info({ outcome }, 'forgot-password');
      return {
        success: true as const,
        message: 'If an account exists for this address, a password-reset email is on its way.',
      };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags: authTags,
        summary: 'Set a new password with the reset link token, and sign in',
        description:
          'Signs out every session, marks the e-mail verified and signs in on a new session. 400 INVALID_TOKEN / ' +
          'TOKEN_EXPIRED for a bad link, 422 WEAK_PASSWORD or VALIDATION_ERROR for the new password.',
        body: ZResetPasswordRequest,
        response: { 200: ZSignedInResponse, ...errorResponses(400, 403, 422) },
      },
    },
    async (request, reply) => {
      const signedIn = await resetPassword(app, request.body, clientInfo(request));
      setRefreshCookie(app, reply, signedIn.refreshToken, signedIn.refreshTtlSeconds);
      return {
        success: true as const,
        message: 'Password reset.',
        data: { user: signedIn.user, tokens: signedIn.tokens },
      };
    },
  );

  app.post(
    '/change-password',
    {
      preHandler: authenticate,
      config: { passwordChangeAllowed: true },
      schema: {
        tags: authTags,
        security: signedInSecurity,
        summary: 'Change my password',
        description:
          'Needs the current password: a wrong one is 401 INVALID_CREDENTIALS (details.fields names currentPassword; ' +
          'the session stays) and counts toward the sign-in throttle. Every other session is signed out; ' +
          'data.revokedCount says how many.',
        body: ZChangePasswordRequest,
        response: { 200: ZRevokeAllResponse, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const result = await changePassword(
        app,
        { userId: user.id, sessionId: user.sessionId },
        request.body,
        clientInfo(request),
        { throttle, devices, deviceCookie: deviceCookieFrom(request) },
      );
      return {
        success: true as const,
        message: 'Password changed. Your other sessions have been signed out.',
        data: result,
      };
    },
  );

  app.post(
    '/validate-password',
    {
      schema: {
        tags: authTags,
        summary: 'Rate a password with the rule the server enforces',
        description:
          'isValid = at least 8 characters, not a common password, not containing the e-mail or name, and score ≥ 2 ' +
          '(fair). Character classes raise the score but are not required one by one.',
        body: ZValidatePasswordRequest,
        response: { 200: ZValidatePasswordResponse, ...errorResponses(400, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        validation: checkPasswordStrength(request.body.password, {
          email: request.body.email,
          name: request.body.name,
        }),
      },
    }),
  );
};
