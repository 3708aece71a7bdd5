import { z } from 'zod';
import { ZQueryBoolean, successEnvelope } from './common';
import { ZMonthCalls } from './month-calls';

export const usagePeriods = ['last_7_days', 'last_30_days', 'last_90_days'] as const;
export const ZUsagePeriod = z.enum(usagePeriods);
export type TUsagePeriod = z.infer<typeof ZUsagePeriod>;
export const usagePeriodDays: Record<TUsagePeriod, number> = { last_7_days: 7, last_30_days: 30, last_90_days: 90 };

export const ZUsageQuery = z.object({
  period: ZUsagePeriod.default('last_30_days'),
  includeRecommendations: ZQueryBoolean.default(true),
  includeErrorDetails: ZQueryBoolean.default(false),
});

export const recommendationCodes = [
  'first-key',
  'key-quota',
  'success-rate',
  'slow-responses',
  'upgrade-pro',
  'unused-key',
] as const;

export const ZRecommendation = z.object({
  title: z.string(),
  message: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  code: z
    .enum(recommendationCodes)
    .optional()
    .describe("What is recommended, for a reader's own language (title and message are in English)"),
  params: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('The values the sentence names (a key, a percentage, a duration in ms)'),
});
export type TRecommendation = z.infer<typeof ZRecommendation>;

export const ZDayPoint = z.object({
  date: z.string().describe('YYYY-MM-DD (UTC)'),
  requests: z.number().int(),
  errors: z.number().int(),
});

export const ZUsageAnalytics = z
  .object({
    period: ZUsagePeriod,
    from: z.string(),
    to: z.string(),
    summary: z.object({
      totalApiKeys: z.number().int(),
      activeApiKeys: z.number().int(),
      totalRequests: z.number().int().describe('Calls made over the period, refused ones included'),
      successRate: z.number().describe('Percent of calls answered below 400; 100 when there were none'),
      memberSince: z.string(),
      avgResponseTime: z.number().describe('Milliseconds'),
    }),
    limits: z.object({
      hasMultiplePlans: z.boolean(),
      plans: z.array(z.string()),
      planName: z.string(),
      planDisplayName: z.string(),
      maxRequestsPerMonth: z.number().int(),
      currentMonthUsage: z
        .number()
        .int()
        .describe('Calls counted against the monthly quota this month: monthCalls.counted'),
      monthCalls: ZMonthCalls.describe("All the user's keys this month"),
      utilizationRate: z.object({ monthly: z.number().describe('Percent of the primary plan monthly quota used') }),
      planBreakdown: z.array(
        z.object({
          keyId: z.string(),
          keyName: z.string(),
          planName: z.string(),
          usage: z.number().int().describe('Calls counted against the quota this month'),
          utilization: z.number().describe('Percent of the key monthly quota'),
          totalUsage: z.number().int().describe('Calls made over the period'),
        }),
      ),
    }),
    usage: z.object({
      byDay: z.array(ZDayPoint).describe('Every day of the period, zeros included'),
      byApiKey: z.array(
        z.object({
          keyId: z.string(),
          keyName: z.string(),
          requests: z.number().int(),
          successRate: z.number(),
          lastUsed: z.string().nullable(),
        }),
      ),
      byEndpoint: z
        .record(
          z.string(),
          z.object({
            group: z.string(),
            requests: z.number().int(),
            successRate: z.number(),
            avgResponseTime: z.number(),
          }),
        )
        .describe('Keyed by endpoint path, e.g. "/pdf/merge"'),
    }),
    recommendations: z.array(ZRecommendation).optional(),
    errors: z
      .object({
        total: z.number().int(),
        byCode: z.array(
          z.object({ code: z.string(), status: z.number().int(), count: z.number().int(), lastSeen: z.string() }),
        ),
        recent: z.array(
          z.object({
            endpoint: z.string(),
            status: z.number().int(),
            code: z.string().nullable(),
            keyName: z.string(),
            createdAt: z.string(),
          }),
        ),
      })
      .optional(),
  })
  .meta({ id: 'UsageAnalytics' });
export type TUsageAnalytics = z.infer<typeof ZUsageAnalytics>;
export const ZUsageResponse = successEnvelope(z.object({ usage: ZUsageAnalytics }));

export const ZDashboardStats = z
  .object({
    requestsToday: z.number().int(),
    requestsThisMonth: z.number().int().describe('Calls made this month: monthCalls.made'),
    monthCalls: ZMonthCalls.describe("All the user's keys this month"),
    totalApiKeys: z.number().int(),
    activeApiKeys: z.number().int(),
    successRate: z.number(),
    avgResponseTime: z.number(),
    planName: z.string(),
    planDisplayName: z.string(),
    maxRequestsPerMonth: z.number().int(),
    utilization: z.number(),
    series: z.array(ZDayPoint).describe('The last 30 days'),
    recommendations: z.array(ZRecommendation),
  })
  .meta({ id: 'DashboardStats' });
export const ZDashboardResponse = successEnvelope(z.object({ dashboard: ZDashboardStats }));

export const ZAdminOverview = z
  .object({
    users: z.object({ total: z.number().int(), active: z.number().int(), newToday: z.number().int() }),
    apiKeys: z.object({ total: z.number().int(), active: z.number().int(), newToday: z.number().int() }),
    requests: z.object({
      today: z.number().int().describe('Calls made today, by everyone'),
      thisMonth: z.number().int().describe('Calls made this month: monthCalls.made'),
      total: z.number().int().describe('Calls made since the start'),
    }),
    monthCalls: ZMonthCalls.describe("Every user's keys this month, as each user's own pages count them"),
    successRate: z.number(),
    errorRate: z.number(),
    avgResponseTime: z.number(),
    revenue: z.object({ monthly: z.number(), currency: z.string(), activeSubscriptions: z.number().int() }),
    series: z.array(ZDayPoint),
  })
  .meta({ id: 'AdminOverview' });
export const ZAdminOverviewResponse = successEnvelope(z.object({ overview: ZAdminOverview }));
