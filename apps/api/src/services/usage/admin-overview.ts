import { count, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, usageDaily, users } from '../../data/schema/index';
import { activeRevenue } from '../subscriptions/index';
import { monthCallsOfEveryone } from './month-calls';
import { dailyRows, dayStr, periodDays, round1, series, totals } from './rollups';

/**
 * Global figures for admins (GET /admin/stats/overview). The month's calls come from month-calls.ts, where each
 * user's own pages get theirs, so the overview is the sum of what every user sees.
 */
export async function getAdminOverview(db: Db, now = new Date()) {
  const today = dayStr(now);
  const todayStart = new Date(`${today}T00:00:00Z`);
  const days = periodDays(30, now);
  const [[u], [k], rows, [all], revenue, monthCalls] = await Promise.all([
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
    monthCallsOfEveryone(db, now),
  ]);
  const sum = totals(rows);
  return {
    users: { total: u?.total ?? 0, active: u?.active ?? 0, newToday: u?.newToday ?? 0 },
    apiKeys: { total: k?.total ?? 0, active: k?.active ?? 0, newToday: k?.newToday ?? 0 },
    requests: {
      today: rows.filter((r) => r.day === today).reduce((a, r) => a + r.requests, 0),
      thisMonth: monthCalls.made,
      total: Number(all?.n ?? 0),
    },
    monthCalls,
    successRate: sum.successRate,
    errorRate: sum.requests ? round1((sum.errors / sum.requests) * 100) : 0,
    avgResponseTime: sum.avgResponseTime,
    revenue: { monthly: revenue.monthly, currency: revenue.currency, activeSubscriptions: revenue.count },
    series: series(rows, days),
  };
}
