import fp from 'fastify-plugin';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { isAdminRole } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { MaintenanceSwitch } from '../services/admin/maintenance';

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: MaintenanceSwitch;
    /** Processing-guard hook, after the key is known: 503 MAINTENANCE for everyone but admins' keys. */
    maintenanceGate: onRequestHookHandler;
  }
}

async function plugin(app: FastifyInstance) {
  const maintenance = new MaintenanceSwitch(app.db);
  app.decorate('maintenance', maintenance);
  const gate: onRequestHookHandler = async (request) => {
    const m = maintenance.current();
    if (!m.enabled) return;
    // Admins keep access, so they can check the service before opening it again.
    if (isAdminRole(request.apiKeyState?.rec?.userRole)) return;
    throw new AppError('MAINTENANCE', m.message ?? 'Maintenance en cours', {
      headers: { 'Retry-After': m.retryAfterSeconds },
      details: { retryAfter: m.retryAfterSeconds, since: m.since },
    });
  };
  app.decorate('maintenanceGate', gate);
}

/** Maintenance mode (services/admin/maintenance.ts): the switch, and the gate the processing guard runs. */
export const maintenancePlugin = fp(plugin, { name: 'maintenance' });
