import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZErrorResponse,
  ZPlanCompareQuery,
  ZPlanCompareResponse,
  ZPlanNameParam,
  ZPlanRecommendationsQuery,
  ZPlanRecommendationsResponse,
  ZPlanResponse,
  ZPlansResponse,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import {
  comparisonRows,
  comparisonTable,
  getPublicPlan,
  listPublicPlans,
  recommendPlans,
  toPlanDto,
} from '../../../services/plans/index';

/** Public plan catalogue: no authentication. */
export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['plans'];

  app.get(
    '/',
    { schema: { tags, summary: 'Public, active plans in display order', response: { 200: ZPlansResponse } } },
    async () => ({ success: true as const, data: { plans: (await listPublicPlans(app.db)).map(toPlanDto) } }),
  );

  app.get(
    '/compare',
    {
      schema: {
        tags,
        summary: 'Compare plans side by side',
        description: '`format=table` answers a plain-text table (text/plain) instead of JSON.',
        querystring: ZPlanCompareQuery,
        response: {
          200: {
            content: { 'application/json': { schema: ZPlanCompareResponse }, 'text/plain': { schema: z.string() } },
          },
          404: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const all = await listPublicPlans(app.db);
      const wanted = request.query.plans;
      const unknown = wanted.filter((n) => !all.some((p) => p.name === n));
      if (unknown.length)
        throw new AppError(
          'NOT_FOUND',
          `Unknown plan${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; valid: ${all.map((p) => p.name).join(', ')}`,
        );
      const rows = wanted.length ? all.filter((p) => wanted.includes(p.name)) : all;
      if (request.query.format === 'table') return reply.type('text/plain; charset=utf-8').send(comparisonTable(rows));
      return reply
        .type('application/json')
        .send({ success: true as const, data: { plans: rows.map(toPlanDto), comparison: comparisonRows(rows) } });
    },
  );

  app.get(
    '/recommendations',
    {
      schema: {
        tags,
        summary: 'Plans ranked by fit for the stated needs, with reasons',
        querystring: ZPlanRecommendationsQuery,
        response: { 200: ZPlanRecommendationsResponse },
      },
    },
    async (request) => {
      const recommendations = recommendPlans(await listPublicPlans(app.db), request.query);
      const best = recommendations.find((r) => r.fits) ?? null;
      return { success: true as const, data: { recommendations, best: best?.plan.name ?? null } };
    },
  );

  app.get(
    '/:name',
    {
      schema: {
        tags,
        summary: 'One plan by name',
        params: ZPlanNameParam,
        response: { 200: ZPlanResponse, 404: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: { plan: toPlanDto(await getPublicPlan(app.db, request.params.name)) },
    }),
  );
};
