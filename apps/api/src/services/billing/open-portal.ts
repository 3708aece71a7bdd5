import { and, desc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { TBillingPortalFlow } from '@docflow/contracts';
import { billingSubscriptions } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import type { BillingContext } from './context';
import { findCustomerId } from './customers';
import { askStripe, connectedStripe } from './stripe-client';

/** The statuses in which a subscription can still be cancelled or changed in the portal. */
const LIVE = ['active', 'trialing', 'past_due', 'unpaid'];

async function liveSubscriptionId(ctx: BillingContext, userId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: billingSubscriptions.stripeSubscriptionId })
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.userId, userId), inArray(billingSubscriptions.status, LIVE)))
    .orderBy(desc(billingSubscriptions.updatedAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Stripe's flow_data for a deep link. Cancel and change name the subscription; every flow brings the customer back
 * to /plans once done, rather than leaving them on the portal's home page.
 */
async function flowData(
  ctx: BillingContext,
  userId: string,
  flow: TBillingPortalFlow,
  returnUrl: string,
): Promise<Stripe.BillingPortal.SessionCreateParams.FlowData> {
  const after_completion = { type: 'redirect' as const, redirect: { return_url: returnUrl } };
  if (flow === 'payment_method_update') return { type: flow, after_completion };
  const subscription = await liveSubscriptionId(ctx, userId);
  if (!subscription)
    throw new AppError(
      'BILLING_SUBSCRIPTION_MISSING',
      `flow: ${flow} needs a current subscription, and this account has none (buy a plan first: POST /api/v1/billing/checkout)`,
    );
  return flow === 'subscription_cancel'
    ? { type: flow, subscription_cancel: { subscription }, after_completion }
    : { type: flow, subscription_update: { subscription }, after_completion };
}

/**
 * Stripe's Customer Portal (card, invoices, plan change, cancellation) for a user who paid through Checkout, on its
 * home page or, with `flow`, straight on one task.
 */
export async function openPortal(
  ctx: BillingContext,
  userId: string,
  opts: { flow?: TBillingPortalFlow } = {},
): Promise<{ url: string }> {
  const stripe = connectedStripe(ctx);
  const customer = await findCustomerId(ctx, userId);
  if (!customer)
    throw new AppError(
      'BILLING_ACCOUNT_MISSING',
      'No billing account yet: buy a plan first (POST /api/v1/billing/checkout)',
    );
  const return_url = `${ctx.publicUrl}/plans`;
  const flow_data = opts.flow ? await flowData(ctx, userId, opts.flow, return_url) : undefined;
  const session = await askStripe('portal', () =>
    stripe.client.billingPortal.sessions.create({ customer, return_url, ...(flow_data ? { flow_data } : {}) }),
  );
  return { url: session.url };
}
