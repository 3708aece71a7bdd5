import { z } from 'zod';
import { ZMonthCalls } from './month-calls';
import { ZEndpointGroup, ZPageQuery, ZPagination, ZQueryBoolean, successEnvelope } from './common';

export const apiKeyEnvironments = ['development', 'staging', 'production'] as const;
export const ZApiKeyEnvironment = z.enum(apiKeyEnvironments);
export type TApiKeyEnvironment = z.infer<typeof ZApiKeyEnvironment>;

/** Length of the stored, displayable start of a key (`dfk_live_xyz`). */
export const API_KEY_PREFIX_LENGTH = 12;

export const ZApiKeyLimits = z.object({
  maxRequestsPerMinute: z.number().int(),
  maxRequestsPerHour: z.number().int(),
  maxRequestsPerMonth: z.number().int(),
  maxFileSize: z.number().int(),
  maxPagesPerPdf: z.number().int().nullable(),
  burstLimit: z.number().int().nullable(),
});
export type TApiKeyLimits = z.infer<typeof ZApiKeyLimits>;

/** Per-key limits of an admin "custom" key (spec-2 "Custom limits"). */
export const ZCustomLimits = ZApiKeyLimits.extend({
  allowedEndpoints: z.array(ZEndpointGroup),
  features: z.array(z.string()).default([]),
  validityDays: z.number().int().nullable().default(null),
});
export type TCustomLimits = z.infer<typeof ZCustomLimits>;

export const ZApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    environment: ZApiKeyEnvironment,
    key: z.string().optional().describe('The full secret: present only in the answer that created or regenerated it'),
    keyPrefix: z.string(),
    keyLastFour: z
      .string()
      .nullable()
      .optional()
      .describe("The secret's last four characters, to tell keys apart; null for keys made before they were kept"),
    isActive: z.boolean(),
    planName: z.string(),
    planDisplayName: z.string(),
    currentUsage: z
      .number()
      .int()
      .describe('Calls of this key counted against the monthly quota this calendar month (UTC): monthCalls.counted'),
    monthCalls: ZMonthCalls.describe("This key's calls this month: made, counted, not counted"),
    limits: ZApiKeyLimits,
    allowedEndpoints: z.array(ZEndpointGroup),
    lastUsedAt: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    keyType: z.enum(['standard', 'custom']),
    customPlan: z.object({ displayName: z.string(), limits: ZCustomLimits }).nullable(),
  })
  .meta({ id: 'ApiKey' });
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyName = z
  .string()
  .trim()
  .min(3, 'Key name must be 3 to 100 characters')
  .max(100, 'Key name must be 3 to 100 characters')
  .regex(/^[\p{L}\p{N} _-]+$/u, 'Key name may contain only letters, digits, spaces, hyphens and underscores');

export const ZCreateApiKeyRequest = z.object({
  name: ZApiKeyName,
  planName: z.string().trim().min(1).max(50).optional().describe("Defaults to 'pro' when owned, else 'free'"),
  environment: ZApiKeyEnvironment.default('development'),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

/** The longest a key may stay valid, in days (spec-2 section 9's bound on a custom key's validity). */
export const API_KEY_MAX_VALIDITY_DAYS = 3650;

export const ZUpdateApiKeyRequest = z
  .object({
    name: ZApiKeyName.optional(),
    isActive: z.boolean().optional(),
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe(
        'When the key stops working (ISO 8601, in the future, no later than its plan allows: created + the ' +
          "plan's validityDays, or a custom key's, else 3650 days from now); null: never, where the plan allows it",
      ),
  })
  .refine((v) => v.name !== undefined || v.isActive !== undefined || v.expiresAt !== undefined, {
    message: 'Give name, isActive or expiresAt',
  });
export type TUpdateApiKeyRequest = z.infer<typeof ZUpdateApiKeyRequest>;

export const ZApiKeysQuery = ZPageQuery.extend({
  isActive: ZQueryBoolean.optional(),
  includeStats: ZQueryBoolean.optional(),
});

export const ZApiKeyResponse = successEnvelope(z.object({ apiKey: ZApiKey }));
export const ZApiKeysResponse = successEnvelope(z.object({ apiKeys: z.array(ZApiKey), pagination: ZPagination }));
export const ZDeleteApiKeyResponse = successEnvelope(z.object({ id: z.string() }));

/** GET /ping: a key check that counts like any call. */
export const ZPingResponse = successEnvelope(
  z.object({
    plan: z.string(),
    keyPrefix: z.string(),
    environment: ZApiKeyEnvironment,
    remaining: z.object({ minute: z.number().int(), hour: z.number().int(), month: z.number().int() }),
  }),
);
