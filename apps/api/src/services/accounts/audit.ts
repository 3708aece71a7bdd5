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
  | 'role_changed';

/**
 * One row of the security audit trail. Best effort: a failed audit write is logged by the caller's logger if given,
 * but never fails the action it records.
 */
export async function recordAudit(
  db: Db,
  entry: { userId?: string | null; action: AuditAction; ip?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  try {
    await db.insert(auditLog).values({
      userId: entry.userId ?? null,
      action: entry.action,
      ip: entry.ip ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    });
  } catch {
    /* best effort */
  }
}
