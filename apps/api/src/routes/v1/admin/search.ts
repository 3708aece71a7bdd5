import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminSearchQuery, ZAdminSearchResponse, ZAuditLogQuery, ZAuditLogResponse } from '@docflow/contracts';
import { listAuditLog } from '../../../services/admin/audit-log';
import { adminSearch } from '../../../services/admin/search';
import { adminRoute, withErrors } from './http';

/** Global search and the audit trail. */
export const adminSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  const search = adminRoute('search');
  app.get(
    '/search',
    {
      onRequest: search.onRequest,
      schema: {
        ...search.schemaBase,
        summary: 'Users and API keys matching q',
        querystring: ZAdminSearchQuery,
        response: { 200: ZAdminSearchResponse, ...withErrors(422) },
      },
    },
    async (request) => ({ success: true as const, data: await adminSearch(app.db, request.query) }),
  );

  const audit = adminRoute('auditLog');
  app.get(
    '/audit-log',
    {
      onRequest: audit.onRequest,
      schema: {
        ...audit.schemaBase,
        summary: 'Who did what, on whom, when and from where (admin actions by default; adminOnly=false adds sign-ins)',
        querystring: ZAuditLogQuery,
        response: { 200: ZAuditLogResponse, ...withErrors(422) },
      },
    },
    async (request) => ({ success: true as const, data: await listAuditLog(app.db, request.query) }),
  );
};
