import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminBillingEventsQuery, ZAdminBillingEventsResponse } from '@docflow/contracts';
import { listBillingEvents } from '../../../services/billing/list-events';
import { adminRoute, withErrors } from './http';

/** The Stripe webhook events received, for the admins (registered at /admin/billing). */
export const adminBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { onRequest, schemaBase } = adminRoute('monitor');
  app.get(
    '/events',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'Stripe events received: when, their type, and whether each was processed or failed (and why)',
        querystring: ZAdminBillingEventsQuery,
        response: { 200: ZAdminBillingEventsResponse, ...withErrors(422) },
      },
    },
    async (request) => ({ success: true as const, data: await listBillingEvents(app.db, request.query) }),
  );
};
