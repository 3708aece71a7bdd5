import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAuthResponse,
  ZEmailRequest,
  ZMessageResponse,
  ZRegisterRequest,
  ZRegisterResponse,
  ZVerifyEmailQuery,
} from '@docflow/contracts';
import { requestLanguage } from '../../../lib/i18n/language';
import { registerUser } from '../../../services/accounts/register-user';
import { resendVerification } from '../../../services/accounts/resend-verification';
import { AppError } from '../../../lib/app-error';
import { verifyEmail } from '../../../services/accounts/verify-email';
import { authTags, clientInfo, errorResponses, setRefreshCookie } from './http';
import type { AuthQuotas } from './index';

/** Sign-up and e-mail verification. */
export const signUpRoutes: FastifyPluginAsyncZod<{ quotas: AuthQuotas }> = async (app, { quotas }) => {
  const resendWait = app.verificationMailWaits;
  app.post(
    '/register',
    {
      schema: {
        tags: authTags,
        summary: 'Create an account',
        description:
          'With e-mail verification on (the default) the answer has no user and no tokens, and is the same for an ' +
          'address that already has an account (its owner gets a mail saying so): a verification link is mailed. ' +
          'Otherwise the user is signed in at once (user, tokens, and the refresh token in the df_refresh cookie), ' +
          'and a used address is 409 EMAIL_TAKEN. 422 WEAK_PASSWORD naming what the password lacks, ' +
          "422 VALIDATION_ERROR for 'Passwords do not match' or 'Please accept the terms and conditions'.",
        body: ZRegisterRequest,
        response: { 201: ZRegisterResponse, ...errorResponses(400, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      await quotas.take('register', request.ip);
      // Registration source (spec-2 User): the dashboard sends X-DocFlow-Client; anything else signed up by API.
      const source = request.headers['x-docflow-client'] === 'dashboard' ? 'web' : 'api';
      const language = requestLanguage(request.headers['accept-language']);
      const result = await registerUser(app, request.body, clientInfo(request), { source, language });
      if (result.verificationRequired) {
        // A mail just went to the address (a link, or a note to its owner): a resend waits its minute.
        resendWait.start(request.body.email);
        // The same answer whether the address was free or already had an account (its owner is mailed instead).
        return reply.code(201).send({
          success: true as const,
          message: 'Check your email: we sent you a link to activate your account.',
          data: {},
        });
      }
      setRefreshCookie(app, reply, result.signedIn.refreshToken, result.signedIn.refreshTtlSeconds);
      return reply.code(201).send({
        success: true as const,
        message: 'Account created.',
        data: { user: result.user, tokens: result.signedIn.tokens },
      });
    },
  );

  app.get(
    '/verify-email',
    {
      schema: {
        tags: authTags,
        summary: 'Verify the e-mail address with the link token, and sign in',
        description:
          'Single use, valid 24 h. Success marks the address verified and signs the user in. ' +
          'A bad link answers 400 with INVALID_TOKEN (unknown or already used) or TOKEN_EXPIRED; details.reason says which.',
        querystring: ZVerifyEmailQuery,
        response: { 200: ZAuthResponse, ...errorResponses(400, 403, 422) },
      },
    },
    async (request, reply) => {
      const signedIn = await verifyEmail(app, request.query.token, clientInfo(request));
      setRefreshCookie(app, reply, signedIn.refreshToken, signedIn.refreshTtlSeconds);
      return {
        success: true as const,
        message: 'Email verified.',
        data: { user: signedIn.user, tokens: signedIn.tokens },
      };
    },
  );

  app.post(
    '/resend-verification',
    {
      schema: {
        tags: authTags,
        summary: 'Mail a new verification link',
        description:
          'Always the same answer, whether or not an unverified account exists for the address. Older links stop ' +
          'working. At most one mail a minute per address (a sign-up counts): a request within that minute is answered ' +
          '429 RATE_LIMIT_EXCEEDED with Retry-After (and details.retryAfter) in seconds, whether or not the address ' +
          'has an account.',
        body: ZEmailRequest,
        response: { 200: ZMessageResponse, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => {
      await quotas.take('mail', request.ip);
      const wait = resendWait.take(request.body.email);
      if (wait > 0)
        throw new AppError(
          'RATE_LIMIT_EXCEEDED',
          'A verification email was just sent to this address: wait before asking again',
          {
            headers: { 'Retry-After': wait },
            details: { retryAfter: wait },
          },
        );
      const outcome = await resendVerification(app, request.body.email);
      request.log.info({ outcome }, 'resend-verification');
      return {
        success: true as const,
        message: 'If an unverified account exists for this address, a new verification email is on its way.',
      };
    },
  );
};
