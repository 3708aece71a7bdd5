import type { FastifyPluginAsync } from 'fastify';
import { auditRefusals } from './refusal-audit';
import { adminStatsRoutes } from './stats';
import { adminUserRoutes } from './users';
import { adminCustomKeyRoutes } from './custom-keys';
import { adminSystemRoutes } from './system';
import { adminSearchRoutes } from './search';
import { adminPlanRoutes } from './plans';
import { adminCustomerRequestRoutes } from './customer-requests';
import { adminBillingRoutes } from './billing-events';

/**
 * /api/v1/admin: every route needs an access token (401) and an admin capability (403). Actions are audited by their
 * services when done, and here when refused (refusal-audit.ts), so the trail holds both.
 */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onError', auditRefusals(app));
  await app.register(adminStatsRoutes, { prefix: '/stats' });
  await app.register(adminUserRoutes, { prefix: '/users' });
  await app.register(adminCustomKeyRoutes, { prefix: '/api-keys/custom' });
  await app.register(adminSystemRoutes, { prefix: '/system' });
  await app.register(adminPlanRoutes, { prefix: '/plans' });
  await app.register(adminBillingRoutes, { prefix: '/billing' });
  await app.register(adminCustomerRequestRoutes);
  await app.register(adminSearchRoutes);
};
