import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TRIAL_DAYS, ZServiceInfoResponse } from '@docflow/contracts';

/** What the service keeps and promises, as configured: the public pages quote it rather than a figure of their own. */
export const serviceInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/service-info',
    {
      schema: {
        tags: ['health'],
        summary: 'Retention of job results and the trial length, as configured (no authentication)',
        response: { 200: ZServiceInfoResponse },
      },
    },
    async () => ({
      success: true as const,
      data: {
        service: {
          jobResultRetentionHours: app.config.JOB_RESULT_TTL_HOURS,
          uploadsKept: false as const,
          trialDays: TRIAL_DAYS,
        },
      },
    }),
  );
};
