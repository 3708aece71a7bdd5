import type { FastifyPluginAsync } from 'fastify';
import { adminStatsRoutes } from './stats';
import { adminUserRoutes } from './users';
import { adminCustomKeyRoutes } from './custom-keys';
import { adminSystemRoutes } from './system';
import { adminSearchRoutes } from './search';
import { adminPlanRoutes } from './plans';

/** /api/v1/admin: every route needs an access token (401) and an admin capability (403). */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  await app.register(adminStatsRoutes, { prefix: '/stats' });
  await app.register(adminUserRoutes, { prefix: '/users' });
  await app.register(adminCustomKeyRoutes, { prefix: '/api-keys/custom' });
  await app.register(adminSystemRoutes, { prefix: '/system' });
  await app.register(adminPlanRoutes, { prefix: '/plans' });
  await app.register(adminSearchRoutes);
};
