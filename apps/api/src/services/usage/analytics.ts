import { eq } from 'drizzle-orm';
import { usagePeriodDays, type TUsageAnalytics, type TUsagePeriod } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { apiKeys, plans, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { effectiveLimits } from '../api-keys/index';
import { ownedPlans, primaryPlanName } from '../subscriptions/index';
import { errorDetails } from './error-details';
import { monthCallsOfUser } from './month-calls';
import { recommendations } from './recommendations';
import { dailyRows, dayStr, periodDays, rate, round1, series, totals, type DailyRow } from './rollups';

/**
 * The usage analytics of one user (GET /my/usage) and the dashboard's figures drawn from them: real figures from the
 * daily rollups, every day of the period. `getMyUsage` reads what it needs once, then each section of the answer is
 * built by its own function below.
 */

type UserKey = Awaited<ReturnType<typeof userKeys>>[number];
type OwnedPlan = Awaited<ReturnType<typeof ownedPlans>>[number];
type KeyTally = { requests: number; errors: number };
type EndpointTally = { group: string; requests: number; errors: number; dur: number };

async function userKeys(db: Db, userId: string) {
  return db
    .select({ key: apiKeys, plan: plans })
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .where(eq(apiKeys.userId, userId))
    .orderBy(apiKeys.createdAt);
}

/** The period's rows summed per key and per endpoint. */
function tallyByKeyAndEndpoint(rows: DailyRow[]) {
  const perKey = new Map<string, KeyTally>();
  const perEndpoint = new Map<string, EndpointTally>();
  for (const r of rows) {
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
  return { perKey, perEndpoint };
}

/** The plans section: the user's primary plan, every plan their keys use, and each active key's month quota use. */
function planLimits(
  owned: OwnedPlan[],
  activePlan: string | null,
  active: UserKey[],
  month: Awaited<ReturnType<typeof monthCallsOfUser>>,
  perKey: Map<string, KeyTally>,
) {
  const primaryName = primaryPlanName(owned, activePlan);
  const primary = owned.find((o) => o.plan.name === primaryName)?.plan ?? owned[0]?.plan;
  const planNames = [...new Set([primaryName, ...active.map((k) => k.plan.name)])];
  const monthUsage = month.total.counted;
  const maxMonth = primary?.maxRequestsPerMonth ?? 0;
  const breakdown = active.map((k) => {
    const lim = effectiveLimits(k.plan, k.key.keyType === 'custom' ? k.key.customLimits : null);
    const usage = month.byKey.get(k.key.id)?.counted ?? 0;
    return {
      keyId: k.key.id,
      keyName: k.key.name,
      planName: k.plan.name,
      usage,
      utilization: round1((usage / lim.maxRequestsPerMonth) * 100),
      totalUsage: perKey.get(k.key.id)?.requests ?? 0,
    };
  });
  const limits: TUsageAnalytics['limits'] = {
    hasMultiplePlans: planNames.length > 1,
    plans: planNames,
    planName: primary?.name ?? 'free',
    planDisplayName: primary?.displayName ?? 'Free',
    maxRequestsPerMonth: maxMonth,
    currentMonthUsage: monthUsage,
    monthCalls: month.total,
    utilizationRate: { monthly: maxMonth ? round1((monthUsage / maxMonth) * 100) : 0 },
    planBreakdown: breakdown,
  };
  return { limits, primary };
}

/** Calls per key over the period, busiest first; deleted keys only when they made calls in it. */
function usageByKey(keys: UserKey[], perKey: Map<string, KeyTally>) {
  return keys
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
}

/** Calls per endpoint over the period, busiest first. */
function usageByEndpoint(perEndpoint: Map<string, EndpointTally>) {
  return Object.fromEntries(
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
}

/** The usage analytics of one user (GET /my/usage). */
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
  const [keys, rows, owned, month] = await Promise.all([
    userKeys(db, userId),
    dailyRows(db, userId, from),
    ownedPlans(db, userId, now),
    monthCallsOfUser(db, userId, now),
  ]);
  const live = keys.filter((k) => k.key.deletedAt === null);
  const active = live.filter((k) => k.key.isActive && (!k.key.expiresAt || k.key.expiresAt > now));

  const sum = totals(rows);
  const { perKey, perEndpoint } = tallyByKeyAndEndpoint(rows);
  const { limits, primary } = planLimits(owned, user.activePlan, active, month, perKey);

  const out: TUsageAnalytics = {
    period: q.period,
    from,
    to: days[days.length - 1]!,
    summary: {
      totalApiKeys: live.length,
      activeApiKeys: active.length,
      totalRequests: sum.requests,
      successRate: sum.successRate,
      memberSince: user.createdAt.toISOString(),
      avgResponseTime: sum.avgResponseTime,
    },
    limits,
    usage: { byDay: series(rows, days), byApiKey: usageByKey(keys, perKey), byEndpoint: usageByEndpoint(perEndpoint) },
  };
  if (q.includeRecommendations) {
    out.recommendations = recommendations({
      keys: live.length,
      total: sum.requests,
      successRate: sum.successRate,
      avgResponseTime: sum.avgResponseTime,
      breakdown: limits.planBreakdown,
      primary: primary ? { name: primary.name, displayName: primary.displayName } : null,
      userUtilization: limits.utilizationRate.monthly,
      unused: active.filter((k) => !perKey.has(k.key.id)).map((k) => k.key.name),
    });
  }
  if (q.includeErrorDetails) out.errors = await errorDetails(db, userId, new Date(`${from}T00:00:00Z`), keys);
  return out;
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
    requestsThisMonth: u.limits.monthCalls.made,
    monthCalls: u.limits.monthCalls,
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
