import { z } from 'zod';
import { ZPagination, successEnvelope } from '../common';

/**
 * The Stripe webhook events a server received (admin list, issue 29). An event is `processed` once applied (or
 * stored as one DocFlow does not act on), `failed` when its last application failed (Stripe retries it; the next
 * delivery may still apply it), `pending` while a delivery is applying it.
 */
export const ZBillingEventStatus = z.enum(['processed', 'failed', 'pending']);
export type TBillingEventStatus = z.infer<typeof ZBillingEventStatus>;

export const ZAdminBillingEvent = z
  .object({
    id: z.string().describe("Stripe's event id (evt_…)"),
    type: z.string().describe('e.g. invoice.payment_failed'),
    created: z.string().describe('When Stripe made the event'),
    received: z.string().describe('When this server first received it'),
    status: ZBillingEventStatus,
    processedAt: z.string().nullable(),
    /** What applying it did: 'applied', or why it was stored and left (e.g. 'ignored: customer … is no user's'). */
    outcome: z.string().nullable(),
    /** Why its last application failed; null once a later delivery applied it. */
    error: z.string().nullable(),
    failedAt: z.string().nullable(),
  })
  .meta({ id: 'AdminBillingEvent' });
export type TAdminBillingEvent = z.infer<typeof ZAdminBillingEvent>;

export const ZAdminBillingEventsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  type: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z_.]+$/, 'type: a Stripe event type, e.g. invoice.paid')
    .optional()
    .describe('Only events of this Stripe type'),
  status: ZBillingEventStatus.optional(),
});
export type TAdminBillingEventsQuery = z.input<typeof ZAdminBillingEventsQuery>;

export const ZAdminBillingEventsResponse = successEnvelope(
  z.object({
    events: z.array(ZAdminBillingEvent),
    pagination: ZPagination,
    /** Every type received, for the filter. */
    types: z.array(z.string()),
  }),
);
export type TAdminBillingEventsResponse = z.infer<typeof ZAdminBillingEventsResponse>;
