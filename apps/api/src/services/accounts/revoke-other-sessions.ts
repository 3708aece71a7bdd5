import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { sessions } from '../../data/schema/index';
import { recordAudit } from './audit';
import type { ClientInfo } from './context';
import type { RevokeReason } from './revoke-session';

/** Revoke all the user's active sessions but `keepSessionId` (none kept when undefined). Returns how many ended. */
export async function revokeOtherSessions(
  db: Db,
  userId: string,
  keepSessionId: string | undefined,
  reason: RevokeReason,
  client?: ClientInfo,
): Promise<number> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  if (rows.length)
    await recordAudit(db, {
      userId,
      action: 'sessions_revoked',
      ip: client?.ip,
      details: { count: rows.length, reason, kept: keepSessionId ?? null },
    });
  return rows.length;
}
