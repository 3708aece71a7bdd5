import { and, eq } from 'drizzle-orm';
import type { TUserRole } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { sessions, users } from '../../data/schema/index';

/** What a signed-in request is checked against on every call: its session's state and its user's. */
export interface SessionState {
  role: TUserRole;
  isActive: boolean;
  revokedAt: Date | null;
  expiresAt: Date;
  mustChangePassword: boolean;
}

/** The session `sessionId` of user `userId` with that user's role and state; undefined when no such pair exists. */
export async function getSessionState(
  db: Db,
  ids: { sessionId: string; userId: string },
): Promise<SessionState | undefined> {
  const [row] = await db
    .select({
      role: users.role,
      isActive: users.isActive,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
      mustChangePassword: users.mustChangePassword,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, ids.sessionId), eq(users.id, ids.userId)));
  return row;
}
