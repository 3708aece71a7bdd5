import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TNotification, TNotificationCode } from '@docflow/contracts';
import type { Db } from '../data/db';
import { notifications } from '../data/schema/index';

export interface NewNotification {
  type: 'success' | 'warning' | 'info';
  title: string;
  message: string;
  /**
   * The event and its values: the dashboard renders the notification from them in its reader's language; title and
   * message are kept for other readers.
   */
  code?: TNotificationCode;
  params?: Record<string, string | number>;
  /** Set for events that must be told once only (e.g. `usage-80:<keyId>:<yyyy-mm>`). */
  dedupeKey?: string;
}

/** Record an event for a user's bell. Never throws: a notification must not fail the action it reports. */
export async function notify(db: Db, userId: string, n: NewNotification): Promise<void> {
  try {
    await db
      .insert(notifications)
      .values({
        userId,
        type: n.type,
        title: n.title,
        message: n.message,
        code: n.code ?? null,
        params: n.params ?? {},
        dedupeKey: n.dedupeKey ?? null,
      })
      .onConflictDoNothing();
  } catch {
    /* best effort */
  }
}

const toDto = (r: typeof notifications.$inferSelect): TNotification => ({
  id: r.id,
  type: r.type,
  title: r.title,
  message: r.message,
  ...(r.code ? { code: r.code as TNotificationCode, params: r.params } : {}),
  timestamp: r.createdAt.toISOString(),
  read: r.readAt !== null,
});

export async function listNotifications(db: Db, userId: string, opts: { limit: number; unreadOnly: boolean }) {
  const where = opts.unreadOnly
    ? and(eq(notifications.userId, userId), isNull(notifications.readAt))
    : eq(notifications.userId, userId);
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt))
    .limit(opts.limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { notifications: rows.map(toDto), unreadCount: count?.n ?? 0 };
}

/** Returns false when the notification is not the user's (the route answers 404). */
export async function markNotificationRead(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllNotificationsRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
