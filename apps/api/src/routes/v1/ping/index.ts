import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorResponse, ZPingResponse } from '@docflow/contracts';
import { ANY_GROUP } from '../../../plugins/processing-guard';

/** GET /ping: checks a key (any plan) and counts like any processing call. */
export const pingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ping',
    {
      ...app.processingGuard(ANY_GROUP),
      schema: {
        tags: ['processing'],
        security: [{ apiKey: [] }],
        summary: 'Check an API key and see what is left of its limits',
        response: {
          200: ZPingResponse,
          401: ZErrorResponse,
          402: ZErrorResponse,
          403: ZErrorResponse,
          429: ZErrorResponse,
        },
      },
    },
    async (request) => {
      const state = request.apiKeyState!;
      const remaining = state.decision!.remaining;
      return {
        success: true as const,
        data: {
          plan: state.rec!.plan.name,
          keyPrefix: state.rec!.keyPrefix,
          environment: state.rec!.environment,
          remaining,
        },
      };
    },
  );
};
