import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { emailVerifications, passwordResets, sessions } from '../../data/schema/index';

/** Ended sessions are kept this long (the user's recent history, reuse detection), then deleted. */
const KEEP_ENDED_MS = 30 * 24 * 3600 * 1000;
const KEEP_LINKS_MS = 7 * 24 * 3600 * 1000;

/**
 * Housekeeping run periodically by the auth routes: delete sessions ended over 30 days ago (their used-token hashes go
 * with them, ON DELETE CASCADE) and e-mail links expired or used over 7 days ago.
 */
export async function purgeExpired(db: Db, now = new Date()): Promise<{ sessions: number; links: number }> {
  const sessionCutoff = new Date(now.getTime() - KEEP_ENDED_MS);
  const linkCutoff = new Date(now.getTime() - KEEP_LINKS_MS);
  const s = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, sessionCutoff),
        and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, sessionCutoff)),
      ),
    )
    .returning({ id: sessions.id });
  let links = 0;
  for (const table of [emailVerifications, passwordResets]) {
    const rows = await db
      .delete(table)
      .where(or(lt(table.expiresAt, linkCutoff), and(isNotNull(table.usedAt), lt(table.usedAt, linkCutoff))))
      .returning({ id: table.id });
    links += rows.length;
  }
  return { sessions: s.length, links };
}
