import type { Db } from '../../data/db';
import { auditLog } from '../../data/schema/index';

export type AuditAction =
  | 'register'
  | 'register_existing_email'
  | 'login_success'
  | 'login_failed'
  | 'login_refused'
  | 'email_verified'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'refresh_token_reuse'
  | 'logout'
  | 'session_revoked'
  | 'sessions_revoked'
  | 'user_created'
  | 'role_changed'
  | 'plan_request.create'
  | 'plan_request.cancel'
  | 'support_message.create'
  | AdminAuditAction
  | AdminRefusedAction;

/** Actions made through the admin API: `userId` is the admin, `target` what they acted on. */
export const adminAuditActions = [
  'admin.user.create',
  'admin.user.update',
  'admin.user.activate',
  'admin.user.deactivate',
  'admin.user.delete',
  'admin.key.create',
  'admin.key.update_limits',
  'admin.key.delete',
  'admin.plan.update',
  'admin.cache.clear',
  'admin.metrics.refresh',
  'admin.maintenance.on',
  'admin.maintenance.off',
  'admin.test_service',
  'admin.plan_request.grant',
  'admin.plan_request.decline',
  'admin.support_message.handle',
] as const;
export type AdminAuditAction = (typeof adminAuditActions)[number];
/** An admin action the server refused (role rules, address rules, validation…): the attempt, with its reason. */
export type AdminRefusedAction = `${AdminAuditAction}.refused`;

export interface AuditTarget {
  type: 'user' | 'api_key' | 'plan' | 'system' | 'plan_request' | 'support_message';
  id: string;
  label?: string | null;
}

/**
 * One row of the security audit trail. Best effort: a failed audit write is logged by the caller's logger if given,
 * but never fails the action it records.
 */
export async function recordAudit(
  db: Db,
  entry: {
    userId?: string | null;
    action: AuditAction;
    ip?: string | null;
    details?: Record<string, unknown>;
    target?: AuditTarget;
  },
): Promise<void> {
  try {
    await db.insert(auditLog).values({
      userId: entry.userId ?? null,
      action: entry.action,
      ip: entry.ip ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      targetLabel: entry.target?.label ?? null,
    });
  } catch {
    /* best effort */
  }
}
