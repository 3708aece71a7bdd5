import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TJobStatus } from '@docflow/contracts';
import { users } from './accounts';
import { apiKeys } from './billing';

/** A call counted against a limit subject's windows (services/limits' LimitReceipt, as stored). */
export interface JobLimitReceipt {
  subject: string;
  monthId: string;
  hourEndsAt: number;
}

/** One uploaded input of a job, as stored: the multipart field and name it came with. */
export interface JobInput {
  field: string;
  fileName: string;
  mimeType: string;
  size: number;
}

/** What a finished job answered: the stored result's type, size and offered name, and the HTTP status. */
export interface JobResult {
  statusCode: number;
  contentType: string;
  size: number;
  fileName: string | null;
  pages: number | null;
  /** The answer's own X- headers (X-Ocr-Confidence, X-File-Count…), given back with it. */
  headers?: Record<string, string>;
}

/** Per-file outcome of a batch job, as each file finishes. */
export interface JobStep {
  name: string;
  status: 'succeeded' | 'failed';
  pages?: number;
  errorCode?: string;
  message?: string;
}

/**
 * How a job's end reaches its callback URL when it is not DocFlow's JSON event: Gotenberg's webhook (its
 * Gotenberg-Webhook-* headers), the result file itself with `method`, or on failure `{status, message}` to `errorUrl`.
 */
export interface GotenbergWebhookFormat {
  kind: 'gotenberg';
  method: WebhookMethod;
  /** Where a failure's `{status, message}` goes (Gotenberg-Webhook-Error-Url); absent when only events are asked. */
  errorUrl?: string;
  errorMethod: WebhookMethod;
  /** Gotenberg-Webhook-Events-Url: told `webhook.success` or `webhook.error` once the job's webhook is settled. */
  eventsUrl?: string;
  /** Gotenberg-Webhook-Extra-Http-Headers: sent with both. */
  extraHeaders: Record<string, string>;
  /** The call's Gotenberg-Trace, sent back with the delivery as Gotenberg does. */
  trace: string;
}
export type WebhookMethod = 'POST' | 'PUT' | 'PATCH';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    /** The DocFlow endpoint, as metered (e.g. /conversion/word-to-pdf). */
    endpoint: text('endpoint').notNull(),
    endpointGroup: text('endpoint_group').notNull(),
    /** The route of the job's call (/api/v1/..., /gotenberg/...): its door runs it (app.jobDoors). */
    route: text('route').notNull(),
    status: text('status').$type<TJobStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    inputs: jsonb('inputs').$type<JobInput[]>().notNull().default([]),
    /** The request headers that shape the answer (Accept, Gotenberg-Output-Filename), kept for its run. */
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull().default({}),
    steps: jsonb('steps').$type<JobStep[]>().notNull().default([]),
    attempts: integer('attempts').notNull().default(0),
    /** host:pid of the node running it (or that ran it last). */
    worker: text('worker'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    result: jsonb('result').$type<JobResult>(),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    /** A synchronous call an API node handed to a worker: not listed, deleted once answered. */
    sync: boolean('sync').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    expiresAt: ts('expires_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Told when the job ends (the `webhook` group): a signed POST, retried with backoff. */
    callbackUrl: text('callback_url'),
    webhookStatus: text('webhook_status').$type<'pending' | 'delivered' | 'failed'>(),
    webhookAttempts: integer('webhook_attempts').notNull().default(0),
    webhookNextAt: ts('webhook_next_at'),
    /** Times the owner asked to send the webhook again (limited per hour: services/webhooks/resend.ts). */
    webhookResends: integer('webhook_resends').notNull().default(0),
    /** Null: DocFlow's signed JSON event; otherwise the shape of the delivery (a Gotenberg client's webhook). */
    webhookFormat: jsonb('webhook_format').$type<GotenbergWebhookFormat>(),
    /** The calls it was counted as when admitted, given back by its run if the server fails it. */
    limitReceipts: jsonb('limit_receipts').$type<JobLimitReceipt[]>().notNull().default([]),
  },
  (t) => [index('jobs_user_idx').on(t.userId, t.createdAt), index('jobs_status_idx').on(t.status, t.createdAt)],
);

export type JobRow = typeof jobs.$inferSelect;

export const webhookSecrets = pgTable('webhook_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    event: text('event').notNull(),
    attempt: integer('attempt').notNull(),
    ok: boolean('ok').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_job_idx').on(t.jobId, t.createdAt)],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** One row per webhook resend, read over a rolling hour per job and per account (no key on job_id: see 0034). */
export const webhookResendLog = pgTable(
  'webhook_resends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_resends_user_idx').on(t.userId, t.createdAt),
    index('webhook_resends_job_idx').on(t.jobId, t.createdAt),
  ],
);
