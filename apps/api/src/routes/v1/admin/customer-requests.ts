import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAdminPlanRequestResponse,
  ZAdminPlanRequestsQuery,
  ZAdminPlanRequestsResponse,
  ZAdminSupportMessageResponse,
  ZAdminSupportMessagesQuery,
  ZAdminSupportMessagesResponse,
  ZDeclinePlanRequest,
  ZGrantPlanRequest,
  ZHandleSupportMessage,
  ZIdParam,
  ZGrantPlanRequestResponse,
} from '@docflow/contracts';
import type { DecisionContext } from '../../../services/customer-requests/context';
import { declinePlanRequest } from '../../../services/customer-requests/decline-plan-request';
import { grantPlanRequest } from '../../../services/customer-requests/grant-plan-request';
import { handleSupportMessage } from '../../../services/customer-requests/handle-support-message';
import { listPlanRequests } from '../../../services/customer-requests/list-plan-requests';
import { listSupportMessages } from '../../../services/customer-requests/list-support-messages';
import type { AuditTarget } from '../../../services/accounts/audit';
import { requestsContext } from '../requests/context';
import { adminContext, adminRoute, withErrors } from './http';
import { audited } from './refusal-audit';

const decisionContext = (app: FastifyInstance, request: FastifyRequest): DecisionContext => {
  const admin = adminContext(app, request);
  return { ...requestsContext(app), actor: admin.actor, ip: admin.ip, evictUser: admin.keys.evictUser };
};
const idOf =
  (type: AuditTarget['type']) =>
  (r: FastifyRequest): AuditTarget | undefined => {
    const id = (r.params as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? { type, id: id.slice(0, 100) } : undefined;
  };

/** Plan requests and support messages for the administrators (issue 29): list, grant, decline, mark handled. */
export const adminCustomerRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { onRequest, schemaBase } = adminRoute('customerRequests');

  app.get(
    '/plan-requests',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: "Customers' plan requests, newest first (optionally of one status)",
        querystring: ZAdminPlanRequestsQuery,
        response: { 200: ZAdminPlanRequestsResponse, ...withErrors(422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { requests: await listPlanRequests(app.db, request.query.status) },
    }),
  );

  app.post(
    '/plan-requests/:id/grant',
    {
      onRequest,
      config: audited('admin.plan_request.grant', idOf('plan_request')),
      schema: {
        ...schemaBase,
        summary: 'Grant a plan request: the user holds the plan for `days` days',
        description:
          '`planName` defaults to the plan asked for. The days count from now, or from the current end of the same ' +
          'plan when later. 409 when the request is no longer pending; 403 SELF_ACTION_FORBIDDEN for your own.',
        params: ZIdParam,
        body: ZGrantPlanRequest,
        response: {
          200: ZGrantPlanRequestResponse,
          ...withErrors(404, 409, 422),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await grantPlanRequest(decisionContext(app, request), request.params.id, request.body),
    }),
  );

  app.post(
    '/plan-requests/:id/decline',
    {
      onRequest,
      config: audited('admin.plan_request.decline', idOf('plan_request')),
      schema: {
        ...schemaBase,
        summary: 'Decline a plan request with a note the customer reads',
        params: ZIdParam,
        body: ZDeclinePlanRequest,
        response: { 200: ZAdminPlanRequestResponse, ...withErrors(404, 409, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { request: await declinePlanRequest(decisionContext(app, request), request.params.id, request.body.note) },
    }),
  );

  app.get(
    '/support-messages',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'Support messages, newest first (optionally of one status)',
        querystring: ZAdminSupportMessagesQuery,
        response: { 200: ZAdminSupportMessagesResponse, ...withErrors(422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { messages: await listSupportMessages(app.db, request.query.status) },
    }),
  );

  app.post(
    '/support-messages/:id/handle',
    {
      onRequest,
      config: audited('admin.support_message.handle', idOf('support_message')),
      schema: {
        ...schemaBase,
        summary: 'Mark a support message handled, with an optional reply the sender reads',
        params: ZIdParam,
        body: ZHandleSupportMessage,
        response: { 200: ZAdminSupportMessageResponse, ...withErrors(404, 409, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        message: await handleSupportMessage(decisionContext(app, request), request.params.id, request.body.reply),
      },
    }),
  );
};
