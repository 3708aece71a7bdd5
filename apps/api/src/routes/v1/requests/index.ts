import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreatePlanRequest,
  ZCreateSupportMessage,
  ZErrorResponse,
  ZIdParam,
  ZPlanRequestResponse,
  ZPlanRequestsResponse,
  ZSupportMessageResponse,
  ZSupportMessagesResponse,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import { cancelPlanRequest } from '../../../services/customer-requests/cancel-plan-request';
import { createPlanRequest } from '../../../services/customer-requests/create-plan-request';
import { createSupportMessage } from '../../../services/customer-requests/create-support-message';
import { listOwnPlanRequests } from '../../../services/customer-requests/list-plan-requests';
import { listOwnSupportMessages } from '../../../services/customer-requests/list-support-messages';
import { requestsContext } from './context';

/**
 * /my/plan-requests and /my/support-messages: what a signed-in customer asks the administrators when no payment
 * provider takes the order (issue 29), and the state of each.
 */
export const customerRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', authenticate);
  const security = [{ accessToken: [] }];
  const plans = { tags: ['plans'], security };
  const support = { tags: ['support'], security };
  const errors = { 401: ZErrorResponse, 422: ZErrorResponse };

  app.post(
    '/plan-requests',
    {
      schema: {
        ...plans,
        summary: 'Ask the administrators for a paid plan (Upgrade or Contact Sales without a payment provider)',
        description: 'One pending request per plan: another while one waits is 409 CONFLICT (details.requestId).',
        body: ZCreatePlanRequest,
        response: { 201: ZPlanRequestResponse, ...errors, 404: ZErrorResponse, 409: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const created = await createPlanRequest(requestsContext(app), currentUser(request).id, request.body, request.ip);
      return reply.code(201).send({ success: true as const, data: { request: created } });
    },
  );

  app.get(
    '/plan-requests',
    {
      schema: {
        ...plans,
        summary: 'My plan requests and their states, newest first',
        response: { 200: ZPlanRequestsResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { requests: await listOwnPlanRequests(app.db, currentUser(request).id) },
    }),
  );

  app.delete(
    '/plan-requests/:id',
    {
      schema: {
        ...plans,
        summary: 'Cancel my pending plan request',
        params: ZIdParam,
        response: { 200: ZPlanRequestResponse, ...errors, 404: ZErrorResponse, 409: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { request: await cancelPlanRequest(app.db, currentUser(request).id, request.params.id, request.ip) },
    }),
  );

  app.post(
    '/support-messages',
    {
      schema: {
        ...support,
        summary: 'Send a message to the support team (stored; the administrators are notified)',
        body: ZCreateSupportMessage,
        response: { 201: ZSupportMessageResponse, ...errors, 409: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const message = await createSupportMessage(
        requestsContext(app),
        currentUser(request).id,
        request.body,
        request.ip,
      );
      return reply.code(201).send({ success: true as const, data: { message } });
    },
  );

  app.get(
    '/support-messages',
    {
      schema: {
        ...support,
        summary: 'My support messages and their states, with the replies',
        response: { 200: ZSupportMessagesResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { messages: await listOwnSupportMessages(app.db, currentUser(request).id) },
    }),
  );
};
