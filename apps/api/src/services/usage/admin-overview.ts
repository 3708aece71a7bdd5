import { and, count, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, usageDaily, users } from '../../data/schema/index';
import { monthStartDay } from '../api-keys/index';
import { activeRevenue } from '../subscriptions/index';
import { dailyRows, dayStr, periodDays, round1, series, totals } from './rollups';

/** Global figures for admins (GET /admin/stats/overview). */
export async function getAdminOverview(db: Db, now = new Date()) {
  const today = dayStr(now);
  const todayStart = new Date(`${today}T00:00:00Z`);
  const days = periodDays(30, now);
  const [[u], [k], rows, [all], revenue] = await Promise.all([
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${users.isActive})::int`,
        newToday: sql<number>`count(*) filter (where ${users.createdAt} >= ${todayStart.toISOString()}::timestamptz)::int`,
      })
      .from(users),
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${apiKeys.isActive} and (${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > now()))::int`,
        newToday: sql<number>`count(*) filter (where ${apiKeys.createdAt} >= ${todayStart.toISOString()}::timestamptz)::int`,
      })
      .from(apiKeys)
      .where(isNull(apiKeys.deletedAt)),
    dailyRows(db, null, days[0]!),
    db.select({ n: sql<number>`coalesce(sum(${usageDaily.requests}), 0)::bigint` }).from(usageDaily),
    activeRevenue(db, now),
  ]);
  const sum = totals(rows);
  const month = monthStartDay(now);
  const thisMonth = rows.filter((r) => r.day >= month).reduce((a, r) => a + r.requests, 0);
  // The 30-day window may start after the month's first day only in 31-day months: count the rest separately.
  const [early] =
    days[0]! > month
      ? await db
          .select({ n: sql<number>`coalesce(sum(${usageDaily.requests}), 0)::int` })
          .from(usageDaily)
          .where(and(gte(usageDaily.day, month), sql`${usageDaily.day} < ${days[0]}::date`))
      : [{ n: 0 }];
  return {
    users: { total: u?.total ?? 0, active: u?.active ?? 0, newToday: u?.newToday ?? 0 },
    apiKeys: { total: k?.total ?? 0, active: k?.active ?? 0, newToday: k?.newToday ?? 0 },
    requests: {
      today: rows.filter((r) => r.day === today).reduce((a, r) => a + r.requests, 0),
      thisMonth: thisMonth + (early?.n ?? 0),
      total: Number(all?.n ?? 0),
    },
    successRate: sum.successRate,
    errorRate: sum.requests ? round1((sum.errors / sum.requests) * 100) : 0,
    avgResponseTime: sum.avgResponseTime,
    revenue: { monthly: revenue.monthly, currency: revenue.currency, activeSubscriptions: revenue.count },
    series: series(rows, days),
  };
}
