import { z } from 'zod';
import { ZEndpointGroup, ZPagination, ZQueryBoolean, successEnvelope } from '../common';
import { API_KEY_MAX_VALIDITY_DAYS, ZApiKey, ZApiKeyEnvironment, ZApiKeyName } from '../keys';

// Custom API keys (spec-2 sections 3, 5, 9)

const MB = 1_048_576;

/** Section 9's bounds. */
export const customLimitBounds = {
  maxRequestsPerMinute: { min: 1, max: 10_000 },
  maxRequestsPerHour: { min: 1, max: 100_000 },
  maxRequestsPerMonth: { min: 1, max: 1_000_000 },
  maxFileSize: { min: 1024, max: 500 * MB },
  maxPagesPerPdf: { min: 1, max: 2000 },
  burstLimit: { min: 1, max: 10_000 },
  validityDays: { min: 1, max: API_KEY_MAX_VALIDITY_DAYS },
} as const;

/** Section 9's defaults. */
export const customLimitDefaults = {
  maxRequestsPerMinute: 1000,
  maxRequestsPerHour: 10_000,
  maxRequestsPerMonth: 100_000,
  maxFileSize: 50 * MB,
  maxPagesPerPdf: 500,
  allowedEndpoints: ['pdf', 'conversion'] as Array<z.infer<typeof ZEndpointGroup>>,
  features: [] as string[],
  burstLimit: null as number | null,
  validityDays: null as number | null,
};

/** Warnings (section 5) and the high-limit flag (section 9). */
export const customLimitThresholds = {
  warnMonthly: 500_000,
  warnFileSize: 100 * MB,
  highMonthly: 500_000,
  highFileSize: 100 * MB,
  highMinute: 5000,
} as const;

/**
 * Limits as an editor sends them: numbers may be missing or out of bounds, so a preview can say what is wrong
 * instead of answering 422. Creation and updates validate the same object strictly (services/admin/custom-limits.ts).
 */
export const ZCustomLimitsDraft = z.object({
  maxRequestsPerMinute: z.number().optional(),
  maxRequestsPerHour: z.number().optional(),
  maxRequestsPerMonth: z.number().optional(),
  maxFileSize: z.number().optional(),
  maxPagesPerPdf: z.number().nullable().optional(),
  allowedEndpoints: z.array(z.string()).optional(),
  features: z.array(z.string()).optional(),
  burstLimit: z.number().nullable().optional(),
  validityDays: z.number().nullable().optional(),
});
export type TCustomLimitsDraft = z.infer<typeof ZCustomLimitsDraft>;

export const ZCustomLimitsTemplateResponse = successEnvelope(
  z.object({
    template: ZCustomLimitsDraft,
    bounds: z.record(z.string(), z.object({ min: z.number(), max: z.number() })),
    endpointGroups: z.array(ZEndpointGroup),
    thresholds: z.record(z.string(), z.number()),
  }),
);

export const ZCustomLimitsPreviewRequest = z.object({
  customLimits: ZCustomLimitsDraft,
  userId: z.string().uuid().optional().describe("Suggest limits from this user's real peak usage"),
});
export const ZCustomLimitsPreview = z
  .object({
    valid: z.boolean(),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    isHighLimit: z.boolean(),
    suggestions: z
      .object({
        maxRequestsPerMinute: z.number().int(),
        maxRequestsPerHour: z.number().int(),
        maxRequestsPerMonth: z.number().int(),
        maxFileSize: z.number().int(),
        basedOn: z.object({
          peakPerMinute: z.number().int(),
          peakPerHour: z.number().int(),
          peakPerMonth: z.number().int(),
          largestFile: z.number().int(),
        }),
      })
      .nullable(),
  })
  .meta({ id: 'CustomLimitsPreview' });
export type TCustomLimitsPreview = z.infer<typeof ZCustomLimitsPreview>;
export const ZCustomLimitsPreviewResponse = successEnvelope(z.object({ preview: ZCustomLimitsPreview }));

export const ZCreateCustomKeyRequest = z.object({
  userId: z.string().uuid(),
  customLimits: ZCustomLimitsDraft,
  keyOptions: z.object({
    name: ZApiKeyName,
    environment: ZApiKeyEnvironment.default('development'),
    description: z.string().trim().max(500).optional(),
    planName: z.string().trim().min(1).max(50).default('pro').describe("Processing settings come from this plan's"),
  }),
});
export type TCreateCustomKeyRequest = z.input<typeof ZCreateCustomKeyRequest>;

export const ZCustomKey = ZApiKey.extend({
  owner: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  description: z.string().nullable(),
}).meta({ id: 'CustomKey' });
export type TCustomKey = z.infer<typeof ZCustomKey>;

export const ZCustomKeyResponse = successEnvelope(z.object({ apiKey: ZCustomKey, preview: ZCustomLimitsPreview }));

export const ZCustomKeysQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  userId: z.string().uuid().optional(),
  search: z.string().trim().max(200).optional(),
  isActive: ZQueryBoolean.optional(),
  sortBy: z.enum(['createdAt', 'name', 'lastUsedAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export const ZCustomKeysResponse = successEnvelope(z.object({ apiKeys: z.array(ZCustomKey), pagination: ZPagination }));
export const ZUpdateCustomLimitsRequest = z.object({ customLimits: ZCustomLimitsDraft });
