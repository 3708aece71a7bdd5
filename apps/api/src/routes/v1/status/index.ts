import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successEnvelope } from '@docflow/contracts';

const ZStatusResponse = successEnvelope(
  z.object({
    maintenance: z.object({ enabled: z.boolean(), message: z.string().nullable(), since: z.string().nullable() }),
  }),
);

/** Public service status: whether processing is paused for maintenance (the dashboard's banner reads it). */
export const statusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/status',
    {
      schema: {
        tags: ['health'],
        summary: 'Maintenance mode as announced to users (no authentication)',
        response: { 200: ZStatusResponse },
      },
    },
    async () => {
      const m = app.maintenance.current();
      return {
        success: true as const,
        data: { maintenance: { enabled: m.enabled, message: m.message, since: m.since } },
      };
    },
  );
};
