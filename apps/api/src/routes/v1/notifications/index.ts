import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZIdParam,
  ZMarkAllReadResponse,
  ZMessageResponse,
  ZNotificationsQuery,
  ZNotificationsResponse,
  ZErrorResponse,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from '../../../services/notifications';
import { notFound } from '../../../lib/app-error';

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', authenticate);
  const common = { tags: ['notifications'], security: [{ accessToken: [] }] };

  app.get(
    '/',
    {
      schema: {
        ...common,
        summary: 'List my notifications, newest first',
        querystring: ZNotificationsQuery,
        response: { 200: ZNotificationsResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listNotifications(app.db, currentUser(request).id, request.query),
    }),
  );
  app.post(
    '/:id/read',
    {
      schema: {
        ...common,
        summary: 'Mark one notification read',
        params: ZIdParam,
        response: { 200: ZMessageResponse, 404: ZErrorResponse },
      },
    },
    async (request) => {
      if (!(await markNotificationRead(app.db, currentUser(request).id, request.params.id)))
        throw notFound('Notification');
      return { success: true as const, message: 'Notification marked as read' };
    },
  );
  app.post(
    '/read-all',
    { schema: { ...common, summary: 'Mark all my notifications read', response: { 200: ZMarkAllReadResponse } } },
    async (request) => ({
      success: true as const,
      message: 'Toutes les notifications ont été marquées comme lues',
      data: { updatedCount: await markAllNotificationsRead(app.db, currentUser(request).id) },
    }),
  );
};
