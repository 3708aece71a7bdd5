import { z } from 'zod';
import { successEnvelope } from './common';

/** Who takes payments: Stripe when the operator connected it, else none (paid plans are asked for, not bought). */
export const ZBillingProvider = z.enum(['stripe', 'none']);
export type TBillingProvider = z.infer<typeof ZBillingProvider>;

export const ZBillingInterval = z.enum(['monthly', 'yearly']);
export type TBillingInterval = z.infer<typeof ZBillingInterval>;

export const ZBillingSubscription = z
  .object({
    id: z.string(),
    planName: z.string(),
    planDisplayName: z.string(),
    interval: ZBillingInterval,
    /** Stripe's status: trialing, active, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
    status: z.string(),
    currentPeriodStart: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    /** The plan ends at currentPeriodEnd (cancelled in the billing portal), unless resumed before. */
    cancelAtPeriodEnd: z.boolean(),
    /** After a failed payment: the plan is kept until then, then the account is on Free unless a payment succeeds. */
    graceUntil: z.string().nullable(),
    endedAt: z.string().nullable(),
  })
  .meta({ id: 'BillingSubscription' });
export type TBillingSubscription = z.infer<typeof ZBillingSubscription>;

/** Amounts are in the currency's main unit (29.00 USD, not 2900 cents). */
export const ZBillingInvoice = z
  .object({
    id: z.string(),
    number: z.string().nullable(),
    amount: z.number(),
    currency: z.string(),
    /** Stripe's status: draft, open, paid, uncollectible, void. */
    status: z.string().nullable(),
    date: z.string(),
    hostedInvoiceUrl: z.string().nullable(),
    pdfUrl: z.string().nullable(),
  })
  .meta({ id: 'BillingInvoice' });
export type TBillingInvoice = z.infer<typeof ZBillingInvoice>;

export const ZBillingNextInvoice = z.object({ amount: z.number(), currency: z.string(), date: z.string().nullable() });
export type TBillingNextInvoice = z.infer<typeof ZBillingNextInvoice>;

export const ZBillingState = z
  .object({
    provider: ZBillingProvider,
    /** The plans that can be bought, with the intervals the operator priced. */
    plans: z.array(z.object({ planName: z.string(), intervals: z.array(ZBillingInterval) })),
    /** The latest Stripe subscription of the user (live or ended); null if they never bought one. */
    subscription: ZBillingSubscription.nullable(),
    nextInvoice: ZBillingNextInvoice.nullable(),
    /** Newest first. */
    invoices: z.array(ZBillingInvoice),
    /** false when Stripe could not be asked for the invoices just now (they are then empty). */
    invoicesAvailable: z.boolean(),
  })
  .meta({ id: 'BillingState' });
export type TBillingState = z.infer<typeof ZBillingState>;
export const ZBillingStateResponse = successEnvelope(ZBillingState);

export const ZBillingCheckoutRequest = z.object({
  planName: z.string().trim().min(1).max(50),
  interval: ZBillingInterval.default('monthly'),
});
export type TBillingCheckoutRequest = z.input<typeof ZBillingCheckoutRequest>;

/**
 * Where in the Customer Portal to land (Stripe's flow_data): straight on the card form (after a failed payment), on
 * the cancellation or the plan change of the live subscription; absent, the portal's home page.
 */
export const ZBillingPortalFlow = z.enum(['payment_method_update', 'subscription_cancel', 'subscription_update']);
export type TBillingPortalFlow = z.infer<typeof ZBillingPortalFlow>;

export const ZBillingPortalRequest = z.object({
  flow: ZBillingPortalFlow.optional().describe(
    'Open the portal on one task: payment_method_update, subscription_cancel or subscription_update (the latter ' +
      'two need a live subscription); absent, its home page',
  ),
});
export type TBillingPortalRequest = z.input<typeof ZBillingPortalRequest>;

/** Where to send the browser: Stripe Checkout or the Customer Portal. */
export const ZBillingRedirectResponse = successEnvelope(z.object({ url: z.string() }));

export const ZBillingWebhookResponse = z.object({
  received: z.literal(true),
  /** false: this event was already received (here or on another node) and is not applied again. */
  applied: z.boolean(),
});
