import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  customLimitBounds,
  customLimitDefaults,
  customLimitThresholds,
  endpointGroups,
  ZCreateCustomKeyRequest,
  ZCustomKeyResponse,
  ZCustomKeysQuery,
  ZCustomKeysResponse,
  ZCustomLimitsPreviewRequest,
  ZCustomLimitsPreviewResponse,
  ZCustomLimitsTemplateResponse,
  ZDeleteApiKeyResponse,
  ZIdParam,
  ZUpdateCustomLimitsRequest,
} from '@docflow/contracts';
import {
  createCustomKey,
  deleteCustomKey,
  listCustomKeys,
  previewCustomLimits,
  updateCustomLimits,
} from '../../../services/admin/custom-keys';
import { requestLanguage } from '../../../lib/i18n/language';
import { adminContext, adminRoute, withErrors } from './http';
import { audited, targets } from './refusal-audit';

/** Custom API keys (spec-2 "Custom keys (admin)"): limits of their own, enforced like a plan's. */
export const adminCustomKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { onRequest, schemaBase } = adminRoute('customKeys', 'admin-keys');

  app.get(
    '/template',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'The default custom limits, their bounds and the warning thresholds',
        response: { 200: ZCustomLimitsTemplateResponse, ...withErrors() },
      },
    },
    async () => ({
      success: true as const,
      data: {
        template: customLimitDefaults,
        bounds: customLimitBounds,
        endpointGroups: [...endpointGroups],
        thresholds: customLimitThresholds,
      },
    }),
  );

  app.post(
    '/preview',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'Check custom limits: valid or not, the errors, the warnings, the high-limit flag, suggestions',
        description: 'Invalid limits are answered 200 with valid=false: the preview reports, it does not refuse.',
        body: ZCustomLimitsPreviewRequest,
        response: { 200: ZCustomLimitsPreviewResponse, ...withErrors(422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        preview: await previewCustomLimits(
          app.db,
          request.body.customLimits,
          request.body.userId,
          requestLanguage(request.headers['accept-language']),
        ),
      },
    }),
  );

  app.post(
    '/',
    {
      onRequest,
      config: audited('admin.key.create', targets.userFromBody),
      schema: {
        ...schemaBase,
        summary: 'Create a custom key for a user (the full key is in this answer only)',
        description:
          'Under the role rules of user management: only for a user of a lower rank (an owner also for another ' +
          'owner), never for yourself (403 FORBIDDEN details.rule owner-protected or rank; 403 ' +
          'SELF_ACTION_FORBIDDEN). The key reads only the jobs made with it, not the user’s other jobs.',
        body: ZCreateCustomKeyRequest,
        response: { 201: ZCustomKeyResponse, ...withErrors(404, 422) },
      },
    },
    async (request, reply) => {
      const data = await createCustomKey(adminContext(app, request), request.body);
      return reply
        .code(201)
        .send({ success: true as const, message: 'Clé API personnalisée créée avec succès !', data });
    },
  );

  app.get(
    '/',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'List custom keys (user, search, active, sort, pages)',
        querystring: ZCustomKeysQuery,
        response: { 200: ZCustomKeysResponse, ...withErrors(422) },
      },
    },
    async (request) => ({ success: true as const, data: await listCustomKeys(app.db, request.query) }),
  );

  app.put(
    '/:id/limits',
    {
      onRequest,
      config: audited('admin.key.update_limits', targets.keyFromParams),
      schema: {
        ...schemaBase,
        summary: "Change a custom key's limits (its next call runs under them)",
        params: ZIdParam,
        body: ZUpdateCustomLimitsRequest,
        response: { 200: ZCustomKeyResponse, ...withErrors(404, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Limites de la clé mises à jour avec succès !',
      data: await updateCustomLimits(adminContext(app, request), request.params.id, request.body.customLimits),
    }),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      config: audited('admin.key.delete', targets.keyFromParams),
      schema: {
        ...schemaBase,
        summary: 'Delete a custom key and its limits',
        params: ZIdParam,
        response: { 200: ZDeleteApiKeyResponse, ...withErrors(404) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Clé API personnalisée supprimée avec succès !',
      data: await deleteCustomKey(adminContext(app, request), request.params.id),
    }),
  );
};
