import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCapability, type TAdminCapability, type TUserRole } from '@docflow/contracts';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';

/**
 * Every /admin route, called with no token and as each role: 401 without a token, 403 for a role without the route's
 * capability, and an answer of the route's own (2xx, or 404/409/422 for the test's made-up ids and bodies) otherwise.
 * The table must name every admin operation of the OpenAPI document, so a new route cannot slip through untested.
 */

type Call = { method: string; url: string; body?: unknown; capability: TAdminCapability };

let t: TestApp;
const tokens: Partial<Record<TUserRole | 'none', string | null>> = { none: null };
let victim: string;

const missing = randomUUID();
const table = (): Record<string, Call> => ({
  adminStatsOverview: { method: 'GET', url: '/admin/stats/overview', capability: 'monitor' },
  adminUsersCreate: {
    method: 'POST',
    url: '/admin/users',
    body: { email: 'not-an-email', name: 'X' },
    capability: 'manageUsers',
  },
  adminUsersList: { method: 'GET', url: '/admin/users', capability: 'manageUsers' },
  adminUsersSearch: { method: 'GET', url: '/admin/users/search?q=someone', capability: 'manageUsers' },
  adminUsersGet: { method: 'GET', url: `/admin/users/${victim}`, capability: 'manageUsers' },
  adminUsersUpdate: {
    method: 'PUT',
    url: `/admin/users/${missing}`,
    body: { company: 'X' },
    capability: 'manageUsers',
  },
  adminUsersDelete: { method: 'DELETE', url: `/admin/users/${missing}`, capability: 'manageUsers' },
  adminUsersStatusUpdate: {
    method: 'PATCH',
    url: `/admin/users/${missing}/status`,
    body: { isActive: true },
    capability: 'manageUsers',
  },
  adminUsersStats: { method: 'GET', url: `/admin/users/${victim}/stats`, capability: 'manageUsers' },
  adminApiKeysCustomTemplate: { method: 'GET', url: '/admin/api-keys/custom/template', capability: 'customKeys' },
  adminApiKeysCustomPreview: {
    method: 'POST',
    url: '/admin/api-keys/custom/preview',
    body: { customLimits: {} },
    capability: 'customKeys',
  },
  adminApiKeysCustomCreate: {
    method: 'POST',
    url: '/admin/api-keys/custom',
    body: { userId: missing, customLimits: {}, keyOptions: { name: 'Table key' } },
    capability: 'customKeys',
  },
  adminApiKeysCustomList: { method: 'GET', url: '/admin/api-keys/custom', capability: 'customKeys' },
  adminApiKeysCustomLimitsUpdate: {
    method: 'PUT',
    url: `/admin/api-keys/custom/${missing}/limits`,
    body: { customLimits: {} },
    capability: 'customKeys',
  },
  adminApiKeysCustomDelete: { method: 'DELETE', url: `/admin/api-keys/custom/${missing}`, capability: 'customKeys' },
  adminSystemMonitor: { method: 'GET', url: '/admin/system/monitor', capability: 'monitor' },
  adminSystemHealth: { method: 'GET', url: '/admin/system/health', capability: 'monitor' },
  adminSystemServices: { method: 'GET', url: '/admin/system/services', capability: 'monitor' },
  adminSystemMetrics: { method: 'GET', url: '/admin/system/metrics', capability: 'monitor' },
  adminSystemBusiness: { method: 'GET', url: '/admin/system/business', capability: 'monitor' },
  adminSystemStats: { method: 'GET', url: '/admin/system/stats', capability: 'monitor' },
  adminSystemDiagnostic: { method: 'GET', url: '/admin/system/diagnostic', capability: 'monitor' },
  adminSystemRealtime: { method: 'GET', url: '/admin/system/realtime', capability: 'monitor' },
  adminSystemAlerts: { method: 'GET', url: '/admin/system/alerts', capability: 'monitor' },
  adminSystemMaintenance: { method: 'GET', url: '/admin/system/maintenance', capability: 'monitor' },
  adminSystemMaintenanceSet: {
    method: 'POST',
    url: '/admin/system/maintenance',
    body: { enabled: false },
    capability: 'maintenance',
  },
  adminSystemCacheClear: { method: 'POST', url: '/admin/system/cache/clear', capability: 'cache' },
  adminSystemMetricsRefresh: { method: 'POST', url: '/admin/system/metrics/refresh', capability: 'monitor' },
  adminSystemTestService: {
    method: 'POST',
    url: '/admin/system/test-service',
    body: { url: 'http://127.0.0.1:9/' },
    capability: 'monitor',
  },
  adminSearch: { method: 'GET', url: '/admin/search?q=table', capability: 'search' },
  adminAuditLog: { method: 'GET', url: '/admin/audit-log', capability: 'auditLog' },
  adminPlans: { method: 'GET', url: '/admin/plans', capability: 'managePlans' },
  adminPlansUpdate: { method: 'PUT', url: '/admin/plans/nope', body: { description: 'x' }, capability: 'managePlans' },
  adminPlanRequestsList: { method: 'GET', url: '/admin/plan-requests', capability: 'customerRequests' },
  adminBillingEventsList: { method: 'GET', url: '/admin/billing/events', capability: 'monitor' },
  adminPlanRequestsGrant: {
    method: 'POST',
    url: `/admin/plan-requests/${missing}/grant`,
    body: { days: 30 },
    capability: 'customerRequests',
  },
  adminPlanRequestsDecline: {
    method: 'POST',
    url: `/admin/plan-requests/${missing}/decline`,
    body: { note: 'x' },
    capability: 'customerRequests',
  },
  adminSupportMessagesList: { method: 'GET', url: '/admin/support-messages', capability: 'customerRequests' },
  adminSupportMessagesHandle: {
    method: 'POST',
    url: `/admin/support-messages/${missing}/handle`,
    body: {},
    capability: 'customerRequests',
  },
});

beforeAll(async () => {
  t = await buildTestApp();
  for (const role of ['user', 'admin', 'super_admin', 'owner'] as const)
    tokens[role] = (await createTestUser(t, { role })).accessToken;
  victim = (await createTestUser(t, { name: 'Table Victim' })).userId;
}, 60_000);
afterAll(() => t?.close());

describe('every /admin route, by role', () => {
  it('the table names every admin operation of the document', async () => {
    const doc = (await t.app.inject({ url: '/api-docs/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const documented = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/v1/admin'))
      .flatMap(([, ops]) => Object.values(ops).map((o) => o.operationId))
      .sort();
    expect(Object.keys(table()).sort()).toEqual(documented);
  });

  for (const who of ['none', 'user', 'admin', 'super_admin', 'owner'] as const) {
    it(`as ${who}`, { timeout: 60_000 }, async () => {
      const results: string[] = [];
      for (const [id, c] of Object.entries(table())) {
        const token = tokens[who];
        const res = await t.app.inject({
          method: c.method as 'GET',
          url: `/api/v1${c.url}`,
          ...(c.body !== undefined ? { payload: c.body as object } : {}),
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        const allowed = who !== 'none' && hasCapability(who, c.capability);
        const expected = who === 'none' ? '401' : allowed ? 'own answer' : '403';
        const got =
          res.statusCode === 401 || res.statusCode === 403
            ? String(res.statusCode)
            : res.statusCode < 500
              ? 'own answer'
              : `${res.statusCode}`;
        // test-service to a loopback address is refused by the URL rules: a 403 URL_NOT_ALLOWED is its own answer.
        const own = res.statusCode === 403 && (res.json() as { code: string }).code === 'URL_NOT_ALLOWED';
        if ((own ? 'own answer' : got) !== expected)
          results.push(`${id}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (res.statusCode === 403 && !own) expect((res.json() as { code: string }).code).toBe('INSUFFICIENT_ROLE');
      }
      expect(results).toEqual([]);
    });
  }

  it('a plain user is told their role and the roles required', async () => {
    const res = await t.app.inject({ url: '/api/v1/admin/users', headers: { authorization: `Bearer ${tokens.user}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual({ role: 'user', requiredRoles: ['admin', 'super_admin', 'owner'] });
    const plans = await t.app.inject({
      url: '/api/v1/admin/plans',
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(plans.json().details).toEqual({ role: 'admin', requiredRoles: ['super_admin', 'owner'] });
  });

  it('refuses a bad body without a token with 401, not 422 (the role check comes before validation)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/users', payload: { email: 1 } });
    expect(res.statusCode).toBe(401);
  });
});
