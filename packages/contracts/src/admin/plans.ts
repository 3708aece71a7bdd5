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
    features: z
      .array(z.string().trim().min(1).max(200))
      .max(20)
      .refine((list) => !list.some(restatesLimit), {
        message: 'features: a bullet restates a limit; the limit bullets are made from the limits (edit those instead)',
      })
      .describe("The plan's other bullets (support, SLA…): the bullets stating its limits are made from the limits"),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    isRecommended: z.boolean(),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type TAdminUpdatePlanRequest = z.infer<typeof ZAdminUpdatePlanRequest>;

/**
 * A bullet that states one of the limits a plan has as a figure ("1,000 requests per month", "Files up to 5 MB",
 * "5 API keys"): the pages make those from the limits, so an operator's copy would go stale at the next edit.
 */
export function restatesLimit(bullet: string): boolean {
  const text = bullet.trim();
  return (
    /^[\d.,\s]+\+?\s*(requests?|calls?|api\s+keys?|pages?)\b/i.test(text) ||
    /^(files?|pdfs?|uploads?)\s+(of\s+)?up\s+to\b/i.test(text) ||
    /^bursts?\s+of\s+[\d.,]+/i.test(text)
  );
}
