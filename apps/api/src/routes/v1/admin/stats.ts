import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminOverviewResponse, ZErrorResponse } from '@docflow/contracts';
import { authenticate, requireCapability } from '../../../plugins/authenticate';
import { getAdminOverview } from '../../../services/usage/admin-overview';

/** Global figures for the admin dashboard (registered at /admin/stats). */
export const adminStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/overview',
    {
      onRequest: [authenticate, requireCapability('monitor')],
      schema: {
        tags: ['admin'],
        security: [{ accessToken: [] }],
        summary: 'Users, keys, requests, success and error rates, revenue (real figures)',
        response: { 200: ZAdminOverviewResponse, 401: ZErrorResponse, 403: ZErrorResponse },
      },
    },
    async () => ({ success: true as const, data: { overview: await getAdminOverview(app.db) } }),
  );
};
