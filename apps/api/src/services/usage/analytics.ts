import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { usagePeriodDays, type TRecommendation, type TUsageAnalytics, type TUsagePeriod } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { apiKeys, plans, usageDaily, usageEvents, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { effectiveLimits, monthStartDay } from '../api-keys/index';
import { activeRevenue, ownedPlans, primaryPlanName } from '../subscriptions/index';

const DAY = 86_400_000;
const dayStr = (d: Date) => d.toISOString().slice(0, 10);
const round1 = (n: number) => Math.round(n * 10) / 10;
const rate = (ok: number, total: number) => (total === 0 ? 100 : round1((ok / total) * 100));

/** Requests of a key counted against its quota since `monthStart` (the limiter seeds its month counter with this). */
export async function monthCountedBefore(db: Db, keyId: string, monthStart: Date): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`coalesce(sum(${usageDaily.counted}), 0)::int` })
    .from(usageDaily)
    .where(and(eq(usageDaily.keyId, keyId), gte(usageDaily.day, dayStr(monthStart))));
  return r?.n ?? 0;
}

/** Every UTC day from `days - 1` days ago to today. */
function periodDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => dayStr(new Date(today - (days - 1 - i) * DAY)));
}

interface DailyRow {
  day: string;
  keyId: string;
  endpoint: string;
  group: string;
  requests: number;
  counted: number;
  errors: number;
  dur: number;
}

async function dailyRows(db: Db, userId: string | null, from: string): Promise<DailyRow[]> {
  const rows = await db
    .select({
      day: usageDaily.day,
      keyId: usageDaily.keyId,
      endpoint: usageDaily.endpoint,
      group: usageDaily.endpointGroup,
      requests: usageDaily.requests,
      counted: usageDaily.counted,
      errors: usageDaily.errors,
      dur: usageDaily.totalDurationMs,
    })
    .from(usageDaily)
    .where(userId ? and(eq(usageDaily.userId, userId), gte(usageDaily.day, from)) : gte(usageDaily.day, from));
  return rows.map((r) => ({ ...r, dur: Number(r.dur) }));
}

function series(rows: DailyRow[], days: string[]) {
  const by = new Map(days.map((d) => [d, { date: d, requests: 0, errors: 0 }]));
  for (const r of rows) {
    const p = by.get(r.day);
    if (p) {
      p.requests += r.requests;
      p.errors += r.errors;
    }
  }
  return [...by.values()];
}

async function userKeys(db: Db, userId: string) {
  return db
    .select({ key: apiKeys, plan: plans })
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .where(eq(apiKeys.userId, userId))
    .orderBy(apiKeys.createdAt);
}

const order = { high: 0, medium: 1, low: 2 } as const;

/** The usage analytics of one user (GET /my/usage): real figures from the rollups, every day of the period. */
export async function getMyUsage(
  db: Db,
  userId: string,
  q: { period: TUsagePeriod; includeRecommendations: boolean; includeErrorDetails: boolean },
  now = new Date(),
): Promise<TUsageAnalytics> {
  const [user] = await db
    .select({ createdAt: users.createdAt, activePlan: users.activePlan })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const days = periodDays(usagePeriodDays[q.period], now);
  const from = days[0]!;
  const month = monthStartDay(now);
  const [keys, rows, owned, monthRows] = await Promise.all([
    userKeys(db, userId),
    dailyRows(db, userId, from),
    ownedPlans(db, userId, now),
    db
      .select({ keyId: usageDaily.keyId, n: sql<number>`coalesce(sum(${usageDaily.counted}), 0)::int` })
      .from(usageDaily)
      .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, month)))
      .groupBy(usageDaily.keyId),
  ]);
  const monthByKey = new Map(monthRows.map((r) => [r.keyId, r.n]));
  const live = keys.filter((k) => k.key.deletedAt === null);
  const active = live.filter((k) => k.key.isActive && (!k.key.expiresAt || k.key.expiresAt > now));

  let total = 0;
  let errors = 0;
  let dur = 0;
  const perKey = new Map<string, { requests: number; errors: number }>();
  const perEndpoint = new Map<string, { group: string; requests: number; errors: number; dur: number }>();
  for (const r of rows) {
    total += r.requests;
    errors += r.errors;
    dur += r.dur;
    const k = perKey.get(r.keyId) ?? { requests: 0, errors: 0 };
    k.requests += r.requests;
    k.errors += r.errors;
    perKey.set(r.keyId, k);
    const e = perEndpoint.get(r.endpoint) ?? { group: r.group, requests: 0, errors: 0, dur: 0 };
    e.requests += r.requests;
    e.errors += r.errors;
    e.dur += r.dur;
    perEndpoint.set(r.endpoint, e);
  }
  const successRate = rate(total - errors, total);
  const avgResponseTime = total ? round1(dur / total) : 0;

  const primaryName = primaryPlanName(owned, user.activePlan);
  const primary = owned.find((o) => o.plan.name === primaryName)?.plan ?? owned[0]?.plan;
  const planNames = [...new Set([primaryName, ...active.map((k) => k.plan.name)])];
  const monthUsage = [...monthByKey.values()].reduce((a, b) => a + b, 0);
  const maxMonth = primary?.maxRequestsPerMonth ?? 0;
  const breakdown = active.map((k) => {
    const lim = effectiveLimits(k.plan, k.key.keyType === 'custom' ? k.key.customLimits : null);
    const usage = monthByKey.get(k.key.id) ?? 0;
    return {
      keyId: k.key.id,
      keyName: k.key.name,
      planName: k.plan.name,
      usage,
      utilization: round1((usage / lim.maxRequestsPerMonth) * 100),
      totalUsage: perKey.get(k.key.id)?.requests ?? 0,
    };
  });

  const byApiKey = keys
    .filter((k) => k.key.deletedAt === null || perKey.has(k.key.id))
    .map((k) => {
      const s = perKey.get(k.key.id) ?? { requests: 0, errors: 0 };
      return {
        keyId: k.key.id,
        keyName: k.key.deletedAt ? `${k.key.name} (deleted)` : k.key.name,
        requests: s.requests,
        successRate: rate(s.requests - s.errors, s.requests),
        lastUsed: k.key.lastUsedAt ? k.key.lastUsedAt.toISOString() : null,
      };
    })
    .sort((a, b) => b.requests - a.requests);

  const byEndpoint = Object.fromEntries(
    [...perEndpoint]
      .sort((a, b) => b[1].requests - a[1].requests)
      .map(([path, e]) => [
        path,
        {
          group: e.group,
          requests: e.requests,
          successRate: rate(e.requests - e.errors, e.requests),
          avgResponseTime: e.requests ? round1(e.dur / e.requests) : 0,
        },
      ]),
  );

  const out: TUsageAnalytics = {
    period: q.period,
    from,
    to: days[days.length - 1]!,
    summary: {
      totalApiKeys: live.length,
      activeApiKeys: active.length,
      totalRequests: total,
      successRate,
      memberSince: user.createdAt.toISOString(),
      avgResponseTime,
    },
    limits: {
      hasMultiplePlans: planNames.length > 1,
      plans: planNames,
      planName: primary?.name ?? 'free',
      planDisplayName: primary?.displayName ?? 'Free',
      maxRequestsPerMonth: maxMonth,
      currentMonthUsage: monthUsage,
      utilizationRate: { monthly: maxMonth ? round1((monthUsage / maxMonth) * 100) : 0 },
      planBreakdown: breakdown,
    },
    usage: { byDay: series(rows, days), byApiKey, byEndpoint },
  };
  if (q.includeRecommendations) {
    out.recommendations = recommendations({
      keys: live.length,
      total,
      successRate,
      avgResponseTime,
      breakdown,
      primary: primary ? { name: primary.name, displayName: primary.displayName } : null,
      userUtilization: out.limits.utilizationRate.monthly,
      unused: active.filter((k) => !perKey.has(k.key.id)).map((k) => k.key.name),
    });
  }
  if (q.includeErrorDetails) out.errors = await errorDetails(db, userId, new Date(`${from}T00:00:00Z`), keys);
  return out;
}

function recommendations(f: {
  keys: number;
  total: number;
  successRate: number;
  avgResponseTime: number;
  breakdown: Array<{ keyName: string; planName: string; utilization: number }>;
  primary: { name: string; displayName: string } | null;
  userUtilization: number;
  unused: string[];
}): TRecommendation[] {
  const out: TRecommendation[] = [];
  if (f.keys === 0)
    out.push({
      title: 'Create your first API key',
      message: 'You have no API key yet: create one under API Keys to start calling the API.',
      priority: 'high',
    });
  for (const k of f.breakdown.filter((b) => b.utilization >= 80))
    out.push({
      title: 'Monthly quota almost used',
      message: `Key "${k.keyName}" has used ${k.utilization}% of its ${k.planName} monthly quota. Consider a higher plan before calls are refused.`,
      priority: 'high',
    });
  if (f.total > 0 && f.successRate < 95)
    out.push({
      title: 'Success rate below 95%',
      message: `${f.successRate}% of your calls succeeded over the period. Check the failing requests (sizes, formats, parameters) in the error details.`,
      priority: 'medium',
    });
  if (f.total > 0 && f.avgResponseTime > 1000)
    out.push({
      title: 'Slow responses',
      message: `Your calls averaged ${Math.round(f.avgResponseTime)} ms. Smaller files, page ranges or asynchronous jobs keep responses fast.`,
      priority: 'medium',
    });
  if (f.primary?.name === 'free' && f.userUtilization >= 50)
    out.push({
      title: 'Upgrade to Pro',
      message: `You have used ${f.userUtilization}% of the Free plan this month. Pro gives 100,000 requests and the PDF, OCR and QR endpoints.`,
      priority: 'low',
    });
  for (const name of f.unused.slice(0, 3))
    out.push({
      title: 'Unused API key',
      message: `Key "${name}" made no call over the period; disable it if it is not needed.`,
      priority: 'low',
    });
  return out.sort((a, b) => order[a.priority] - order[b.priority]);
}

async function errorDetails(db: Db, userId: string, from: Date, keys: Array<{ key: { id: string; name: string } }>) {
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

/** The dashboard page's figures (GET /my/dashboard). */
export async function getDashboard(db: Db, userId: string, now = new Date()) {
  const u = await getMyUsage(
    db,
    userId,
    { period: 'last_30_days', includeRecommendations: true, includeErrorDetails: false },
    now,
  );
  const today = dayStr(now);
  return {
    requestsToday: u.usage.byDay.find((d) => d.date === today)?.requests ?? 0,
    requestsThisMonth: u.usage.byDay.filter((d) => d.date >= monthStartDay(now)).reduce((a, d) => a + d.requests, 0),
    totalApiKeys: u.summary.totalApiKeys,
    activeApiKeys: u.summary.activeApiKeys,
    successRate: u.summary.successRate,
    avgResponseTime: u.summary.avgResponseTime,
    planName: u.limits.planName,
    planDisplayName: u.limits.planDisplayName,
    maxRequestsPerMonth: u.limits.maxRequestsPerMonth,
    utilization: u.limits.utilizationRate.monthly,
    series: u.usage.byDay,
    recommendations: u.recommendations ?? [],
  };
}

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
  let total = 0;
  let errors = 0;
  let dur = 0;
  for (const r of rows) {
    total += r.requests;
    errors += r.errors;
    dur += r.dur;
  }
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
    successRate: rate(total - errors, total),
    errorRate: total ? round1((errors / total) * 100) : 0,
    avgResponseTime: total ? round1(dur / total) : 0,
    revenue: { monthly: revenue.monthly, currency: revenue.currency, activeSubscriptions: revenue.count },
    series: series(rows, days),
  };
}
