import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/index';
import { notificationRoutes } from './notifications/index';

/** The wiring list of /api/v1: one plugin per resource. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
};
