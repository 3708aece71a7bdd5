import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { TMonthCalls } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { usageDaily } from '../../data/schema/index';

/**
 * The month's call figures (made, counted, not counted: see ZMonthCalls), the one place they are computed. Every page
 * reads them through here: the dashboard banner, the analytics, the plan card and the key cards, so they agree.
 * Drawn from the daily rollups, as the limits seed their month counters (services/limits/month-usage.ts).
 */

/** First day of the UTC month of `now`, as YYYY-MM-DD. */
export const monthStartDay = (now = new Date()) => `${now.toISOString().slice(0, 7)}-01`;

export const noCalls = (now = new Date()): TMonthCalls => ({
  month: now.toISOString().slice(0, 7),
  made: 0,
  counted: 0,
  notCounted: 0,
});

function figures(month: string, made: number, counted: number): TMonthCalls {
  return { month, made, counted, notCounted: made - counted };
}

async function byKeyWhere(db: Db, where: SQL | undefined, now: Date): Promise<Map<string, TMonthCalls>> {
  const rows = await db
    .select({
      keyId: usageDaily.keyId,
      made: sql<number>`coalesce(sum(${usageDaily.requests}), 0)::int`,
      counted: sql<number>`coalesce(sum(${usageDaily.counted}), 0)::int`,
    })
    .from(usageDaily)
    .where(and(where, gte(usageDaily.day, monthStartDay(now))))
    .groupBy(usageDaily.keyId);
  const month = now.toISOString().slice(0, 7);
  return new Map(rows.map((r) => [r.keyId, figures(month, r.made, r.counted)]));
}

/** This month's figures per key, for the keys named. */
export async function monthCallsOfKeys(db: Db, keyIds: string[], now = new Date()): Promise<Map<string, TMonthCalls>> {
  if (keyIds.length === 0) return new Map();
  return byKeyWhere(db, inArray(usageDaily.keyId, keyIds), now);
}

/** This month's figures of every key of a user (deleted ones included: their calls were made), per key and summed. */
export async function monthCallsOfUser(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<{ total: TMonthCalls; byKey: Map<string, TMonthCalls> }> {
  const byKey = await byKeyWhere(db, eq(usageDaily.userId, userId), now);
  return { total: sumMonthCalls([...byKey.values()], now), byKey };
}

/** This month's figures of every key of everyone: the admins' overview, summed as each user's own are. */
export async function monthCallsOfEveryone(db: Db, now = new Date()): Promise<TMonthCalls> {
  return sumMonthCalls([...(await byKeyWhere(db, undefined, now)).values()], now);
}

/** The figures of several keys together (the keys sharing one quota, or a user's whole account). */
export function sumMonthCalls(list: TMonthCalls[], now = new Date()): TMonthCalls {
  let made = 0;
  let counted = 0;
  for (const c of list) {
    made += c.made;
    counted += c.counted;
  }
  return figures(now.toISOString().slice(0, 7), made, counted);
}
