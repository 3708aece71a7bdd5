import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { TSession } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { sessions } from '../../data/schema/index';
import { describeDevice } from './describe-device';

/** The user's active sessions (not revoked, not expired), most recently used first; `current` marks the caller's. */
export async function listSessions(db: Db, userId: string, currentSessionId?: string): Promise<TSession[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastUsedAt));
  return rows.map((s) => ({
    id: s.id,
    device: describeDevice(s.userAgent),
    userAgent: s.userAgent,
    ip: s.ip,
    createdAt: s.createdAt.toISOString(),
    lastUsedAt: s.lastUsedAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: s.id === currentSessionId,
  }));
}
