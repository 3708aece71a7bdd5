import { z } from 'zod';
import { ZEndpointGroup, successEnvelope } from '../common';
import { ZBillingPeriod, ZPlan } from '../plans';

// Plans (admin)

const MB = 1_048_576;

export const ZAdminPlansResponse = successEnvelope(z.object({ plans: z.array(ZPlan) }));
export const ZAdminUpdatePlanRequest = z
  .object({
    displayName: z.string().trim().min(1).max(100),
    description: z.string().trim().max(1000),
    price: z.number().min(0).max(1_000_000),
    currency: z.string().trim().length(3),
    billingPeriod: ZBillingPeriod,
    maxRequestsPerMonth: z.number().int().min(1).max(100_000_000),
    maxRequestsPerHour: z.number().int().min(1).max(10_000_000),
    maxRequestsPerMinute: z.number().int().min(1).max(1_000_000),
    maxFileSize: z
      .number()
      .int()
      .min(1024)
      .max(512 * MB),
    maxPagesPerPdf: z.number().int().min(1).max(100_000).nullable(),
    maxApiKeysPerUser: z.number().int().min(1).max(1000),
    burstLimit: z.number().int().min(1).max(1_000_000).nullable(),
    allowedEndpoints: z.array(ZEndpointGroup).min(1),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    isRecommended: z.boolean(),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type TAdminUpdatePlanRequest = z.infer<typeof ZAdminUpdatePlanRequest>;
