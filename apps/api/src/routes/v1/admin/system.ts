import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import {
  ZAlertsResponse,
  ZBusinessMetricsResponse,
  ZCacheClearResponse,
  ZDiagnosticResponse,
  ZHealthReportResponse,
  ZMaintenanceRequest,
  ZMaintenanceResponse,
  ZMonitorResponse,
  ZRealtimeResponse,
  ZServicesResponse,
  ZSystemMetricsResponse,
  ZSystemStatsResponse,
  ZTestServiceRequest,
  ZTestServiceResponse,
} from '@docflow/contracts';
import { recordAudit } from '../../../services/accounts/audit';
import { testService } from '../../../services/admin/test-service';
import { adminContext, adminRoute, withErrors } from './http';
import { audited, targets } from './refusal-audit';

/** The system monitor and the operator's switches (spec-2 section 7 "System admin"). */
export const adminSystemRoutes: FastifyPluginAsyncZod = async (app) => {
  const monitor = app.systemMonitor;
  const watch = adminRoute('monitor', 'admin-system');
  // One GET per figure set; the response schema still validates each answer (a generic handler cannot be typed by it).
  const read = (path: string, summary: string, response: ZodType, load: () => Promise<unknown>) =>
    app.get(
      path,
      {
        onRequest: watch.onRequest,
        schema: { ...watch.schemaBase, summary, response: { 200: response, ...withErrors() } },
      },
      async () => ({ success: true as const, data: await load() }),
    );

  read(
    '/monitor',
    'Everything the monitor page shows: status, services, system, business, alerts, maintenance',
    ZMonitorResponse,
    () => monitor.monitor(),
  );
  read(
    '/health',
    'Overall status, uptime and every service (database, Redis, API, each engine)',
    ZHealthReportResponse,
    () => monitor.getHealth(),
  );
  read(
    '/services',
    'Each service with its status, response time and last error, and the counts',
    ZServicesResponse,
    () => monitor.services(),
  );
  read(
    '/metrics',
    "This node's memory, CPU, event loop, disk, process, processing queue and HTTP traffic",
    ZSystemMetricsResponse,
    () => monitor.metrics(),
  );
  read(
    '/business',
    'Users, keys, requests, error rate, response time and revenue, from the database',
    ZBusinessMetricsResponse,
    () => monitor.business(),
  );
  read('/stats', 'System and business figures together', ZSystemStatsResponse, async () => ({
    system: await monitor.metrics(),
    business: await monitor.business(),
  }));
  read(
    '/diagnostic',
    'Checks an operator runs when something is wrong, and the non-secret configuration',
    ZDiagnosticResponse,
    () => monitor.diagnostic(),
  );
  read('/realtime', 'The fast-moving figures (polled every 5 s by the page)', ZRealtimeResponse, () =>
    monitor.realtime(),
  );
  read('/alerts', 'Active alerts by priority, their counts and the thresholds', ZAlertsResponse, () =>
    monitor.alerts(),
  );
  read('/maintenance', 'Maintenance mode as every node sees it', ZMaintenanceResponse, async () => ({
    maintenance: await app.maintenance.read(),
  }));

  const cache = adminRoute('cache', 'admin-system');
  app.post(
    '/cache/clear',
    {
      onRequest: cache.onRequest,
      config: audited('admin.cache.clear', targets.system('cache')),
      schema: {
        ...cache.schemaBase,
        summary: "Empty this node's caches: API keys (found and unknown), monitor probes",
        response: { 200: ZCacheClearResponse, ...withErrors() },
      },
    },
    async (request) => {
      const ctx = adminContext(app, request);
      const cleared = { apiKeys: ctx.keys.clear(), monitorProbes: monitor.refresh() };
      await recordAudit(app.db, {
        userId: ctx.actor.id,
        action: 'admin.cache.clear',
        ip: ctx.ip,
        target: { type: 'system', id: 'cache' },
        details: cleared,
      });
      return { success: true as const, message: 'Cache vidé', data: { cleared } };
    },
  );

  app.post(
    '/metrics/refresh',
    {
      onRequest: watch.onRequest,
      config: audited('admin.metrics.refresh', targets.system('metrics')),
      schema: {
        ...watch.schemaBase,
        summary: 'Measure everything again now (engine versions included) and answer the fresh monitor figures',
        response: { 200: ZMonitorResponse, ...withErrors() },
      },
    },
    async (request) => {
      const ctx = adminContext(app, request);
      monitor.refresh();
      await recordAudit(app.db, {
        userId: ctx.actor.id,
        action: 'admin.metrics.refresh',
        ip: ctx.ip,
        target: { type: 'system', id: 'metrics' },
      });
      return { success: true as const, data: await monitor.monitor() };
    },
  );

  const maint = adminRoute('maintenance', 'admin-system');
  app.post(
    '/maintenance',
    {
      onRequest: maint.onRequest,
      config: audited(
        (r) =>
          (r.body as { enabled?: unknown } | undefined)?.enabled === true
            ? 'admin.maintenance.on'
            : 'admin.maintenance.off',
        targets.system('maintenance'),
      ),
      schema: {
        ...maint.schemaBase,
        summary: 'Maintenance on or off: processing routes answer 503 MAINTENANCE with Retry-After, admins keep access',
        body: ZMaintenanceRequest,
        response: { 200: ZMaintenanceResponse, ...withErrors(422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { maintenance: await app.maintenance.set(adminContext(app, request), request.body) },
    }),
  );

  app.post(
    '/test-service',
    {
      onRequest: watch.onRequest,
      config: audited('admin.test_service', targets.urlFromBody),
      schema: {
        ...watch.schemaBase,
        summary: 'Whether a URL answers and how fast, under the same address rules as URL conversion',
        body: ZTestServiceRequest,
        response: { 200: ZTestServiceResponse, ...withErrors(403, 422) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await testService(adminContext(app, request), request.body, app.config.outbound),
    }),
  );
};
