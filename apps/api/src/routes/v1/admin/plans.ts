import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminPlansResponse, ZAdminUpdatePlanRequest, ZPlanNameParam, ZPlanResponse } from '@docflow/contracts';
import { listAllPlans, updatePlan } from '../../../services/admin/plans';
import { adminContext, adminRoute, withErrors } from './http';
import { audited, targets } from './refusal-audit';

/** Plans as operators manage them: prices, limits, endpoints, visibility (super_admin and owner). */
export const adminPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const { onRequest, schemaBase } = adminRoute('managePlans', 'admin-plans');
  app.get(
    '/',
    {
      onRequest,
      schema: {
        ...schemaBase,
        summary: 'Every plan, private and inactive ones too',
        response: { 200: ZAdminPlansResponse, ...withErrors() },
      },
    },
    async () => ({ success: true as const, data: { plans: await listAllPlans(app.db) } }),
  );
  app.put(
    '/:name',
    {
      onRequest,
      config: audited('admin.plan.update', targets.planFromParams),
      schema: {
        ...schemaBase,
        summary: 'Change a plan: enforcement, the plans page and the landing page follow at once',
        params: ZPlanNameParam,
        body: ZAdminUpdatePlanRequest,
        response: { 200: ZPlanResponse, ...withErrors(404, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Plan mis à jour',
      data: { plan: await updatePlan(adminContext(app, request), request.params.name, request.body) },
    }),
  );
};
