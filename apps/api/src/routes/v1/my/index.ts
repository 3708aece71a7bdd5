import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZApiKeyResponse,
  ZApiKeysQuery,
  ZApiKeysResponse,
  ZCreateApiKeyRequest,
  ZDashboardResponse,
  ZDeleteApiKeyResponse,
  ZErrorResponse,
  ZIdParam,
  ZStartSubscriptionRequest,
  ZSubscriptionResponse,
  ZSubscriptionsResponse,
  ZUpdateApiKeyRequest,
  ZUsageQuery,
  ZUsageResponse,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import {
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
  regenerateApiKey,
  updateApiKey,
} from '../../../services/api-keys/index';
import { listSubscriptions, startSubscription } from '../../../services/subscriptions/index';
import { getDashboard, getMyUsage } from '../../../services/usage/analytics';

/** The signed-in user's own plans, keys and usage (dashboard access token). */
export const myRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', authenticate);
  const security = [{ accessToken: [] }];
  const keys = { tags: ['api-keys'], security };
  const errors = { 401: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

  app.get(
    '/subscriptions',
    {
      schema: {
        tags: ['plans'],
        security,
        summary: 'My plans: the free plan, trials and subscriptions',
        response: { 200: ZSubscriptionsResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { subscriptions: await listSubscriptions(app.db, currentUser(request).id) },
    }),
  );
  app.post(
    '/subscriptions',
    {
      schema: {
        tags: ['plans'],
        security,
        summary: 'Start a plan: a 14-day free trial of a paid plan (once per plan), or the free plan',
        body: ZStartSubscriptionRequest,
        response: { 201: ZSubscriptionResponse, 401: ZErrorResponse, 404: ZErrorResponse, 409: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const subscription = await startSubscription(app.db, currentUser(request).id, request.body.planName);
      return reply.code(201).send({
        success: true as const,
        message:
          subscription.status === 'trial'
            ? `Free trial of ${subscription.planDisplayName} started`
            : `${subscription.planDisplayName} plan active`,
        data: { subscription },
      });
    },
  );

  app.get(
    '/api-keys',
    {
      schema: {
        ...keys,
        summary: 'My API keys, newest first',
        querystring: ZApiKeysQuery,
        response: { 200: ZApiKeysResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listApiKeys(app.db, currentUser(request).id, request.query),
    }),
  );
  app.post(
    '/api-keys',
    {
      schema: {
        ...keys,
        summary: 'Create an API key; the full key is in this answer only',
        body: ZCreateApiKeyRequest,
        response: { 201: ZApiKeyResponse, ...errors, 429: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const { dto } = await createApiKey(app.db, currentUser(request).id, request.body);
      return reply
        .code(201)
        .send({ success: true as const, message: 'Clé API créée avec succès !', data: { apiKey: dto } });
    },
  );
  app.get(
    '/api-keys/:id',
    {
      schema: {
        ...keys,
        summary: 'One of my API keys',
        params: ZIdParam,
        response: { 200: ZApiKeyResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { apiKey: await getApiKey(app.db, currentUser(request).id, request.params.id) },
    }),
  );
  app.put(
    '/api-keys/:id',
    {
      schema: {
        ...keys,
        summary: 'Rename, disable or enable a key, or set or clear its expiry',
        params: ZIdParam,
        body: ZUpdateApiKeyRequest,
        response: { 200: ZApiKeyResponse, ...errors },
      },
    },
    async (request) => {
      const { dto, oldHash } = await updateApiKey(app.db, currentUser(request).id, request.params.id, request.body);
      app.apiKeyGuard.eviction.evict(oldHash);
      return { success: true as const, message: 'Clé API mise à jour avec succès !', data: { apiKey: dto } };
    },
  );
  app.delete(
    '/api-keys/:id',
    {
      schema: {
        ...keys,
        summary: 'Delete a key (it stops working at once)',
        params: ZIdParam,
        response: { 200: ZDeleteApiKeyResponse, ...errors },
      },
    },
    async (request) => {
      const { oldHash } = await deleteApiKey(app.db, currentUser(request).id, request.params.id);
      app.apiKeyGuard.eviction.evict(oldHash);
      return { success: true as const, message: 'Clé API supprimée avec succès !', data: { id: request.params.id } };
    },
  );
  app.post(
    '/api-keys/:id/regenerate',
    {
      schema: {
        ...keys,
        summary:
          'New secret for a key: the old one is invalid at once, usage stays; the new key is in this answer only',
        params: ZIdParam,
        response: { 200: ZApiKeyResponse, ...errors },
      },
    },
    async (request) => {
      const { dto, oldHash } = await regenerateApiKey(app.db, currentUser(request).id, request.params.id);
      app.apiKeyGuard.eviction.evict(oldHash);
      return { success: true as const, message: 'Clé API regénérée avec succès !', data: { apiKey: dto } };
    },
  );

  app.get(
    '/usage',
    {
      schema: {
        tags: ['usage'],
        security,
        summary: 'My usage analytics over a period',
        querystring: ZUsageQuery,
        response: { 200: ZUsageResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { usage: await getMyUsage(app.db, currentUser(request).id, request.query) },
    }),
  );
  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['usage'],
        security,
        summary: 'Figures of the dashboard page',
        response: { 200: ZDashboardResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { dashboard: await getDashboard(app.db, currentUser(request).id) },
    }),
  );
};
