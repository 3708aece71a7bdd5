import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../lib/app-error';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok'), uptime: z.number() }) } } },
    async () => ({ status: 'ok' as const, uptime: process.uptime() }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: { 200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }) },
      },
    },
    async () => {
      try {
        await app.database.ping();
      } catch (err) {
        throw new AppError('SERVICE_UNAVAILABLE', 'Database unreachable', { cause: err });
      }
      return { status: 'ready' as const, checks: { database: 'ok' } };
    },
  );
};
