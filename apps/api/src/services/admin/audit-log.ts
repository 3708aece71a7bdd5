import { and, count, desc, eq, like, sql } from 'drizzle-orm';
import type { TAuditEntry } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { auditLog, users } from '../../data/schema/index';

export interface AuditLogQuery {
  page: number;
  limit: number;
  action?: string;
  actorId?: string;
  targetId?: string;
  adminOnly: boolean;
}

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { text };
  }
}

/** The audit trail, newest first: who (the admin, or the user for sign-ins), what, on whom, when, from where. */
export async function listAuditLog(db: Db, q: AuditLogQuery) {
  const where = and(
    q.adminOnly ? like(auditLog.action, 'admin.%') : undefined,
    q.action ? eq(auditLog.action, q.action) : undefined,
    q.actorId ? eq(auditLog.userId, q.actorId) : undefined,
    q.targetId ? eq(auditLog.targetId, q.targetId) : undefined,
  );
  const [rows, [{ n } = { n: 0 }]] = await Promise.all([
    db
      .select({ entry: auditLog, email: users.email, name: users.name })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(sql`${auditLog.id}`))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  const entries: TAuditEntry[] = rows.map((r) => ({
    id: r.entry.id,
    at: r.entry.createdAt.toISOString(),
    action: r.entry.action,
    actor: r.entry.userId ? { id: r.entry.userId, email: r.email ?? null, name: r.name ?? null } : null,
    target: r.entry.targetId
      ? { type: r.entry.targetType ?? 'unknown', id: r.entry.targetId, label: r.entry.targetLabel ?? null }
      : null,
    ip: r.entry.ip,
    details: parseDetails(r.entry.details),
  }));
  return {
    entries,
    pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.max(1, Math.ceil(n / q.limit)) },
  };
}
