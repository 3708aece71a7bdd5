import { z } from 'zod';
import { ZEndpointGroup, ZQueryBoolean, successEnvelope } from './common';

export const planNames = ['free', 'pro', 'enterprise'] as const;
export const ZBillingPeriod = z.enum(['monthly', 'yearly', 'one-time']);
export type TBillingPeriod = z.infer<typeof ZBillingPeriod>;

/** Free trial of a paid plan: length and what the sign-up page promises. */
export const TRIAL_DAYS = 14;

export const ZPlan = z
  .object({
    id: z.string(),
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    price: z.number().describe('Price per billing period, in `currency`'),
    currency: z.string(),
    billingPeriod: ZBillingPeriod,
    maxRequestsPerMonth: z.number().int(),
    maxRequestsPerHour: z.number().int(),
    maxRequestsPerMinute: z.number().int(),
    maxFileSize: z.number().int().describe('Bytes per uploaded file'),
    maxPagesPerPdf: z.number().int().nullable(),
    maxApiKeysPerUser: z.number().int().describe('Keys a user may hold on this plan'),
    burstLimit: z
      .number()
      .int()
      .nullable()
      .describe('Token-bucket capacity; refilled at maxRequestsPerMinute per minute'),
    allowedEndpoints: z.array(ZEndpointGroup),
    features: z
      .array(z.string())
      .describe("The plan's other bullets (support, SLA…); the bullets stating its limits are made from the limits"),
    validityDays: z.number().int().nullable().describe('Days a key on this plan stays valid; null = unlimited'),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    isRecommended: z.boolean(),
    sortOrder: z.number().int(),
  })
  .meta({ id: 'Plan' });
export type TPlan = z.infer<typeof ZPlan>;

export const ZPlanNameParam = z.object({ name: z.string().min(1).max(50) });
export const ZPlansResponse = successEnvelope(z.object({ plans: z.array(ZPlan) }));
export const ZPlanResponse = successEnvelope(z.object({ plan: ZPlan }));

export const ZPlanCompareQuery = z.object({
  plans: z
    .string()
    .optional()
    .describe('Comma-separated plan names; all public plans when absent')
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  format: z.enum(['json', 'table']).default('json'),
});
export const ZPlanComparisonRow = z.object({
  feature: z.string(),
  label: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export const ZPlanCompareResponse = successEnvelope(
  z.object({ plans: z.array(ZPlan), comparison: z.array(ZPlanComparisonRow) }),
);

export const ZPlanRecommendationsQuery = z.object({
  dailyRequests: z.coerce.number().int().min(0).max(100_000_000).optional(),
  fileSize: z.coerce.number().min(0).optional().describe('Largest file, in MB'),
  needsOcr: ZQueryBoolean.optional(),
  needsQrcode: ZQueryBoolean.optional(),
  needsPdf: ZQueryBoolean.optional(),
  needsBatch: ZQueryBoolean.optional(),
  budget: z.coerce.number().min(0).optional().describe('Highest price per month the user will pay'),
  environment: z.enum(['development', 'staging', 'production']).optional(),
  priority: z.enum(['cost', 'performance', 'balanced']).default('balanced'),
});
export type TPlanRecommendationsQuery = z.infer<typeof ZPlanRecommendationsQuery>;

export const ZPlanRecommendation = z.object({
  plan: ZPlan,
  score: z.number().describe('0-100; higher fits better'),
  fits: z.boolean().describe('Meets every stated need'),
  reasons: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type TPlanRecommendation = z.infer<typeof ZPlanRecommendation>;
export const ZPlanRecommendationsResponse = successEnvelope(
  z.object({ recommendations: z.array(ZPlanRecommendation), best: z.string().nullable() }),
);

// Subscriptions (trials of paid plans; free is owned by everyone)
export const ZSubscriptionStatus = z.enum(['trial', 'active', 'expired', 'cancelled']);
export type TSubscriptionStatus = z.infer<typeof ZSubscriptionStatus>;
export const ZSubscription = z
  .object({
    id: z.string().nullable().describe('null for the implicit free plan'),
    planName: z.string(),
    planDisplayName: z.string(),
    status: ZSubscriptionStatus.describe('Effective status: a trial past its end reads expired'),
    isActive: z.boolean(),
    source: z.string(),
    startedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    daysRemaining: z.number().int().nullable(),
  })
  .meta({ id: 'Subscription' });
export type TSubscription = z.infer<typeof ZSubscription>;
export const ZStartSubscriptionRequest = z.object({ planName: z.string().trim().min(1).max(50) });
export const ZSubscriptionResponse = successEnvelope(z.object({ subscription: ZSubscription }));
export const ZSubscriptionsResponse = successEnvelope(z.object({ subscriptions: z.array(ZSubscription) }));
