import { z } from 'zod';
import { successEnvelope } from './common';

/** Where a job is: queued → running → succeeded | failed | cancelled. */
export const jobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const ZJobStatus = z.enum(jobStatuses);
export type TJobStatus = z.infer<typeof ZJobStatus>;
export const finishedJobStatuses: readonly TJobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** The fields every processing route takes besides its own: run as a job. */
export const ZAsyncFields = z.object({
  async: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: answer 202 with a job at once and run the call in the background (GET /jobs/{id})'),
  callbackUrl: z
    .url()
    .optional()
    .describe(
      'Webhook (plans with the webhook group): a POST to this URL when the job ends (implies async=true), signed the ' +
        'Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of ' +
        '"<id>.<timestamp>.<body>"> keyed with your secret, GET /webhooks/secret). X-Webhook-Signature is deprecated ' +
        '(this release only). Same address rules as url-to-pdf.',
    ),
});

/** The same for a JSON call (the QR codes): `async` may be a boolean there. */
export const ZAsyncJsonFields = ZAsyncFields.extend({
  async: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .describe(ZAsyncFields.shape.async.description!),
});

export const ZJobStep = z.object({
  name: z.string(),
  status: z.enum(['succeeded', 'failed']),
  pages: z.number().int().optional(),
  errorCode: z.string().optional(),
  message: z.string().optional(),
});

export const ZJob = z
  .object({
    id: z.uuid(),
    endpoint: z.string().describe('The DocFlow endpoint the job calls, e.g. /conversion/word-to-pdf'),
    status: ZJobStatus,
    progress: z.number().int().min(0).max(100),
    attempts: z.number().int().describe('Runs started (a run interrupted by a restart or a lost worker is retried)'),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().int().nullable().describe('From start to end of the last run'),
    expiresAt: z.string().nullable().describe('When the job and its files are deleted'),
    error: z
      .object({
        code: z.string().describe('The machine code: stable, whatever the language'),
        message: z.string().describe("In the reader's language (Accept-Language), rendered from the code when read"),
        detail: z
          .string()
          .optional()
          .describe('The precise message as the run gave it (naming a page, a file), when `message` is more general'),
      })
      .nullable(),
    result: z
      .object({
        contentType: z.string(),
        size: z.number().int(),
        fileName: z.string().nullable(),
        pages: z.number().int().nullable(),
        url: z.string().describe('GET it for the result'),
      })
      .nullable(),
    files: z.array(ZJobStep).describe('Per-file results of a batch job, as each file finishes'),
    webhook: z
      .object({
        url: z.string(),
        status: z.enum(['waiting', 'pending', 'delivered', 'failed']),
        attempts: z.number().int(),
        resends: z
          .number()
          .int()
          .describe('Times it was sent again on request (POST /jobs/{id}/webhook/resend; limited per hour)'),
      })
      .nullable()
      .describe('The callback of the job, when it has one: waiting (job not ended), pending, delivered or failed'),
  })
  .meta({ id: 'Job' });
export type TJob = z.infer<typeof ZJob>;

export const ZJobResponse = successEnvelope(ZJob);
export const ZJobAdmittedResponse = successEnvelope(
  z.object({
    jobId: z.uuid(),
    status: ZJobStatus,
    location: z.string().describe('GET it for the status (also in the Location header)'),
  }),
).meta({ id: 'JobAdmitted' });
export type TJobAdmitted = z.infer<typeof ZJobAdmittedResponse>['data'];

export const ZJobsQuery = z.object({
  status: ZJobStatus.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.string().optional().describe('Paging: jobs created before this ISO time (the last createdAt seen)'),
});
export const ZJobsResponse = successEnvelope(z.object({ jobs: z.array(ZJob) }));

export const ZWebhookDelivery = z
  .object({
    id: z.uuid(),
    jobId: z.uuid(),
    url: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    ok: z.boolean(),
    statusCode: z.number().int().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveriesResponse = successEnvelope(z.object({ deliveries: z.array(ZWebhookDelivery) }));

export const ZWebhookSecretResponse = successEnvelope(
  z.object({
    secret: z
      .string()
      .describe(
        'whsec_ + base64 of the HMAC key (Standard Webhooks). Signs webhook-signature: v1,<base64 HMAC-SHA256 of ' +
          '"<webhook-id>.<webhook-timestamp>.<body>">, keyed with the decoded bytes. Deprecated, for one release: ' +
          'X-Webhook-Signature: t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>">, keyed with this text.',
      ),
    createdAt: z.string(),
  }),
);
