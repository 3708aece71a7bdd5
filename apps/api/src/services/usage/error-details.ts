import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { usageEvents } from '../../data/schema/index';

/** A user's failed calls since `from`: counts per error code and the 20 most recent, named by key. */
export async function errorDetails(
  db: Db,
  userId: string,
  from: Date,
  keys: Array<{ key: { id: string; name: string } }>,
) {
  const names = new Map(keys.map((k) => [k.key.id, k.key.name]));
  const where = and(
    eq(usageEvents.userId, userId),
    gte(usageEvents.createdAt, from),
    sql`${usageEvents.statusCode} >= 400`,
  );
  const [byCode, recent] = await Promise.all([
    db
      .select({
        code: sql<string>`coalesce(${usageEvents.errorCode}, 'HTTP_' || ${usageEvents.statusCode})`,
        status: usageEvents.statusCode,
        count: sql<number>`count(*)::int`,
        lastSeen: sql<Date>`max(${usageEvents.createdAt})`,
      })
      .from(usageEvents)
      .where(where)
      .groupBy(sql`1`, usageEvents.statusCode)
      .orderBy(desc(sql`3`)),
    db.select().from(usageEvents).where(where).orderBy(desc(usageEvents.createdAt)).limit(20),
  ]);
  return {
    total: byCode.reduce((a, b) => a + b.count, 0),
    byCode: byCode.map((b) => ({
      code: b.code,
      status: b.status,
      count: b.count,
      lastSeen: new Date(b.lastSeen).toISOString(),
    })),
    recent: recent.map((e) => ({
      endpoint: e.endpoint,
      status: e.statusCode,
      code: e.errorCode,
      keyName: names.get(e.keyId) ?? 'unknown',
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
