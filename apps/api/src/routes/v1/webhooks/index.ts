import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorResponse, ZWebhookSecretResponse } from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import { rotateWebhookSecret, webhookSecret } from '../../../services/webhooks/secrets';

/** The signed-in user's webhook signing secret (dashboard: Jobs & Webhooks). */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', authenticate);
  const common = { tags: ['jobs'], security: [{ accessToken: [] }] };
  const answer = (s: { secret: string; createdAt: Date }) => ({
    success: true as const,
    data: { secret: s.secret, createdAt: s.createdAt.toISOString() },
  });
  app.get(
    '/secret',
    {
      schema: {
        ...common,
        summary: 'My webhook signing secret (made on first ask)',
        response: { 200: ZWebhookSecretResponse, 401: ZErrorResponse },
      },
    },
    async (request) => answer(await webhookSecret(app.db, currentUser(request).id)),
  );
  app.post(
    '/secret/rotate',
    {
      schema: {
        ...common,
        summary: 'Replace my webhook signing secret: webhooks sent from now on are signed with the new one',
        response: { 200: ZWebhookSecretResponse, 401: ZErrorResponse },
      },
    },
    async (request) => answer(await rotateWebhookSecret(app.db, currentUser(request).id)),
  );
};
