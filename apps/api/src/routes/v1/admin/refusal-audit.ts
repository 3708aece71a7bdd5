import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminAuditAction, AuditTarget } from '../../../services/accounts/audit';
import { recordRefusal } from '../../../services/admin/refusals';
import { toAppError } from '../../../plugins/error-handler';

/** How an admin route names the action it performs, so that a refusal of it is audited like its success. */
export interface AuditedAction {
  action: AdminAuditAction | ((request: FastifyRequest) => AdminAuditAction);
  /** What it acts on, read from the request (which may be unvalidated when validation is what refused it). */
  target?: (request: FastifyRequest) => AuditTarget | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    adminAudit?: AuditedAction;
  }
}

/** Route config of an admin action: `config: audited('admin.user.update', userFromParams)`. */
export const audited = (action: AuditedAction['action'], target?: AuditedAction['target']) => ({
  adminAudit: { action, target },
});

const field = (o: unknown, name: string): string | undefined => {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 200) : undefined;
};

/** Targets read from the request, for `audited`. */
export const targets = {
  userFromParams: (r: FastifyRequest): AuditTarget | undefined => {
    const id = field(r.params, 'id');
    return id ? { type: 'user', id } : undefined;
  },
  newUserFromBody: (r: FastifyRequest): AuditTarget | undefined => {
    const email = field(r.body, 'email');
    return email ? { type: 'user', id: email, label: email } : undefined;
  },
  userFromBody: (r: FastifyRequest): AuditTarget | undefined => {
    const id = field(r.body, 'userId');
    return id ? { type: 'user', id } : undefined;
  },
  keyFromParams: (r: FastifyRequest): AuditTarget | undefined => {
    const id = field(r.params, 'id');
    return id ? { type: 'api_key', id } : undefined;
  },
  planFromParams: (r: FastifyRequest): AuditTarget | undefined => {
    const name = field(r.params, 'name');
    return name ? { type: 'plan', id: name, label: name } : undefined;
  },
  system: (id: string) => (): AuditTarget => ({ type: 'system', id }),
  urlFromBody: (r: FastifyRequest): AuditTarget => ({ type: 'system', id: field(r.body, 'url') ?? 'unknown' }),
};

/**
 * onError hook of the admin routes: an admin action refused with a 4xx (a role rule, an address rule, a missing
 * capability, invalid input, an unknown target) is written to the audit trail with its reason, as its success would
 * be. Unauthenticated calls (401) have no actor to name; 5xx are failures, logged, not refusals.
 */
export function auditRefusals(app: FastifyInstance) {
  return async (request: FastifyRequest, _reply: unknown, error: Error): Promise<void> => {
    const spec = request.routeOptions.config.adminAudit;
    const actor = request.authUser;
    if (!spec || !actor) return;
    const appError = toAppError(error);
    if (appError.statusCode < 400 || appError.statusCode >= 500 || appError.statusCode === 401) return;
    const action = typeof spec.action === 'function' ? spec.action(request) : spec.action;
    await recordRefusal(
      app.db,
      { actorId: actor.id, ip: request.ip || null },
      { action, target: spec.target?.(request) },
      appError,
    );
  };
}
