import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TCustomLimits, TEndpointGroup } from '@docflow/contracts';
import { users } from './accounts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Subscription plans (seeded by migration 0010; an admin may add more). */
export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  displayName: text('display_name').notNull(),
  description: text('description').notNull().default(''),
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  billingPeriod: text('billing_period', { enum: ['monthly', 'yearly', 'one-time'] })
    .notNull()
    .default('monthly'),
  maxRequestsPerMonth: integer('max_requests_per_month').notNull(),
  maxRequestsPerHour: integer('max_requests_per_hour').notNull(),
  maxRequestsPerMinute: integer('max_requests_per_minute').notNull(),
  maxFileSize: bigint('max_file_size', { mode: 'number' }).notNull(),
  maxPagesPerPdf: integer('max_pages_per_pdf'),
  maxApiKeysPerUser: integer('max_api_keys_per_user').notNull(),
  burstLimit: integer('burst_limit'),
  allowedEndpoints: text('allowed_endpoints').array().notNull().$type<TEndpointGroup[]>(),
  features: text('features')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  validityDays: integer('validity_days'),
  isActive: boolean('is_active').notNull().default(true),
  isPublic: boolean('is_public').notNull().default(true),
  isRecommended: boolean('is_recommended').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  /** Processing settings (migration 0020, services/plans/processing.ts). */
  javascript: boolean('javascript').notNull().default(true),
  processingTimeoutSeconds: integer('processing_timeout_seconds').notNull().default(120),
  processingWeight: integer('processing_weight').notNull().default(1),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type PlanRow = typeof plans.$inferSelect;

/** A user's hold on a paid plan: a 14-day trial, or an active (admin-renewed) subscription. One row per plan. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    status: text('status', { enum: ['trial', 'active', 'expired', 'cancelled'] }).notNull(),
    source: text('source', { enum: ['trial', 'signup', 'admin', 'stripe'] }).notNull(),
    startedAt: ts('started_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_user_plan_idx').on(t.userId, t.planId)],
);
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** API keys: only the SHA-256 of the secret and its first 12 characters are kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    name: text('name').notNull(),
    description: text('description'),
    environment: text('environment', { enum: ['development', 'staging', 'production'] })
      .notNull()
      .default('development'),
    keyHash: text('key_hash').notNull().unique(),
    keyPrefix: text('key_prefix').notNull(),
    /** The secret's last four characters, to tell keys apart (never more of it); null for keys made before 0040. */
    keyLastFour: text('key_last_four'),
    isActive: boolean('is_active').notNull().default(true),
    keyType: text('key_type', { enum: ['standard', 'custom'] })
      .notNull()
      .default('standard'),
    /**
     * Who made the key: its user, or the admin who made it for them (a custom key; null once that admin is gone).
     * Only a key its user made reads all their jobs (services/jobs/index.ts).
     */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Admin custom keys: limits replacing the plan's. */
    customLimits: jsonb('custom_limits').$type<TCustomLimits>(),
    lastUsedAt: ts('last_used_at'),
    expiresAt: ts('expires_at'),
    regeneratedAt: ts('regenerated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Deleted keys stay (their usage history keeps a name) but never authenticate again. */
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** One row per metered call (written in batches). */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: uuid('key_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    endpointGroup: text('endpoint_group').notNull(),
    method: text('method').notNull(),
    statusCode: integer('status_code').notNull(),
    durationMs: integer('duration_ms').notNull(),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
    pages: integer('pages'),
    errorCode: text('error_code'),
    /** Whether the call passed the limits (and so counts against the quotas). */
    counted: boolean('counted').notNull().default(true),
    requestId: text('request_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // One index only: every extra index is paid on each metered call (the rollups serve per-key queries).
  (t) => [index('usage_events_user_idx').on(t.userId, t.createdAt)],
);

/** Daily rollups per key and endpoint (UTC days), kept by the batch writer. */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    keyId: uuid('key_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    endpointGroup: text('endpoint_group').notNull(),
    requests: integer('requests').notNull().default(0),
    /** Calls that passed the limits: what the quotas count. */
    counted: integer('counted').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    totalDurationMs: bigint('total_duration_ms', { mode: 'number' }).notNull().default(0),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.keyId, t.endpoint] }), index('usage_daily_user_idx').on(t.userId, t.day)],
);

/** One free trial per plan per mailbox (migration 0022): the claim outlives the account that made it. */
export const trialClaims = pgTable(
  'trial_claims',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    mailbox: text('mailbox').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    claimedAt: ts('claimed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.mailbox] })],
);
