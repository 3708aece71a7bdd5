import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZIdParam,
  ZMessageResponse,
  ZRevokeAllResponse,
  ZSessionsResponse,
  ZUpdateProfileRequest,
  ZUserResponse,
} from '@docflow/contracts';
import { notFound } from '../../../lib/app-error';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import { getUser } from '../../../services/accounts/get-user';
import { listSessions } from '../../../services/accounts/list-sessions';
import { revokeOtherSessions } from '../../../services/accounts/revoke-other-sessions';
import { revokeSession } from '../../../services/accounts/revoke-session';
import { updateProfile } from '../../../services/accounts/update-profile';
import { authTags, clearRefreshCookie, clientInfo, errorResponses, signedInSecurity } from './http';

/** The signed-in user's profile and sessions. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', authenticate);
  const common = { tags: authTags, security: signedInSecurity };

  app.get(
    '/me',
    {
      config: { passwordChangeAllowed: true },
      schema: { ...common, summary: 'My account', response: { 200: ZUserResponse, ...errorResponses(401, 403) } },
    },
    async (request) => ({ success: true as const, data: { user: await getUser(app.db, currentUser(request).id) } }),
  );

  app.patch(
    '/me',
    {
      schema: {
        ...common,
        summary: 'Update my profile (name, company, country, timezone, language)',
        description: 'Absent fields stay as they are; null clears an optional field.',
        body: ZUpdateProfileRequest,
        response: { 200: ZUserResponse, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Profile updated.',
      data: { user: await updateProfile(app.db, currentUser(request).id, request.body) },
    }),
  );

  app.get(
    '/sessions',
    {
      schema: {
        ...common,
        summary: 'My active sessions',
        description: 'Signed-in devices, most recently used first; `current` marks the one making this call.',
        response: { 200: ZSessionsResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, data: { sessions: await listSessions(app.db, user.id, user.sessionId) } };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        ...common,
        summary: 'Sign out one of my sessions',
        description: "404 for an unknown id, another user's session, or one already ended.",
        params: ZIdParam,
        response: { 200: ZMessageResponse, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!(await revokeSession(app.db, user.id, request.params.id, 'revoked_by_user', clientInfo(request))))
        throw notFound('Session');
      if (request.params.id === user.sessionId) clearRefreshCookie(app, reply);
      return { success: true as const, message: 'Session revoked.' };
    },
  );

  app.post(
    '/revoke-all-sessions',
    {
      schema: {
        ...common,
        summary: 'Sign out all my other sessions',
        description: 'The session making the call stays signed in.',
        response: { 200: ZRevokeAllResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const revokedCount = await revokeOtherSessions(
        app.db,
        user.id,
        user.sessionId,
        'revoked_by_user',
        clientInfo(request),
      );
      return { success: true as const, message: 'Other sessions revoked.', data: { revokedCount } };
    },
  );
};
