import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { sessions } from '../../data/schema/index';
import { recordAudit } from './audit';
import type { ClientInfo } from './context';

export type RevokeReason =
  'logout' | 'revoked_by_user' | 'password_changed' | 'password_reset' | 'reuse_detected' | 'deactivated_by_admin';

/** Revoke one of the user's active sessions. False when it is not theirs, unknown or already ended (the route's 404). */
export async function revokeSession(
  db: Db,
  userId: string,
  sessionId: string,
  reason: RevokeReason,
  client?: ClientInfo,
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    )
    .returning({ id: sessions.id });
  if (rows.length)
    await recordAudit(db, { userId, action: 'session_revoked', ip: client?.ip, details: { sessionId, reason } });
  return rows.length > 0;
}
