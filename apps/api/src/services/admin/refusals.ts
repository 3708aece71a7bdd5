import { eq } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, users } from '../../data/schema/index';
import type { AppError } from '../../lib/app-error';
import { recordAudit, type AdminAuditAction, type AuditTarget } from '../accounts/audit';

/** What a refused admin request tried to do: the action it would have recorded, on what. */
export interface AttemptedAction {
  action: AdminAuditAction;
  target?: AuditTarget;
  details?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A readable label for the target (the user's e-mail, the key's name and owner), as successes record it. */
async function labelOf(db: Db, target: AuditTarget): Promise<string | null> {
  if (target.label || !UUID.test(target.id)) return target.label ?? null;
  if (target.type === 'user') {
    const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, target.id));
    return u?.email ?? null;
  }
  if (target.type === 'api_key') {
    const [k] = await db
      .select({ name: apiKeys.name, email: users.email })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.id, target.id));
    return k ? `${k.name} (${k.email})` : null;
  }
  return null;
}

const ruleOf = (details: unknown) =>
  details && typeof details === 'object' && 'rule' in details ? (details as { rule: unknown }).rule : undefined;

/**
 * Write a refused admin action to the audit trail, beside the successes: `<action>.refused`, the actor, the target,
 * and why (the code, status and message the actor was answered, and the role rule when one refused). Refusals are
 * what an audit is read for: a probe of an internal address, an attempt on an owner.
 */
export async function recordRefusal(
  db: Db,
  by: { actorId: string; ip: string | null },
  attempted: AttemptedAction,
  error: AppError,
): Promise<void> {
  const target = attempted.target ? { ...attempted.target, label: await labelOf(db, attempted.target) } : undefined;
  const rule = ruleOf(error.details);
  await recordAudit(db, {
    userId: by.actorId,
    action: `${attempted.action}.refused`,
    ip: by.ip,
    target,
    details: {
      ...attempted.details,
      outcome: 'refused',
      status: error.statusCode,
      code: error.code,
      reason: error.message,
      ...(rule !== undefined ? { rule } : {}),
    },
  });
}
