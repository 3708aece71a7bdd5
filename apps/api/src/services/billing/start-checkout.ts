import { and, desc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { TBillingInterval } from '@docflow/contracts';
import { billingSubscriptions, subscriptions } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { findPlan, listPublicPlans } from '../plans/index';
import { effectiveStatus } from '../subscriptions/index';
import type { BillingContext } from './context';
import { ensureCustomer } from './customers';
import { intervalsOf, priceOf } from './prices';
import { askStripe, connectedStripe } from './stripe-client';

const HOUR = 3_600_000;
/** Checkout's subscription_data.trial_end must be at least 48 hours ahead (Stripe's rule); a margin for the page. */
const TRIAL_END_MIN_MS = 49 * HOUR;

/** Stripe statuses of a subscription that still holds (or waits to hold) a plan: a second one is not sold. */
export const OPEN_STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'incomplete'];

/**
 * A Stripe Checkout page for a paid plan. A running trial of the plan carries over: the subscription's first payment
 * falls when the trial would have ended (less than 49 hours left: whole days, rounded up, as trial_period_days).
 */
export async function startCheckout(
  ctx: BillingContext,
  userId: string,
  req: { planName: string; interval: TBillingInterval },
  now = new Date(),
): Promise<{ url: string }> {
  const stripe = connectedStripe(ctx);
  const plan = await findPlan(ctx.db, req.planName);
  const intervals = plan ? intervalsOf(stripe.config, plan) : [];
  if (!plan || !intervals.includes(req.interval)) {
    const forSale = (await listPublicPlans(ctx.db)).filter((p) => intervalsOf(stripe.config, p).includes(req.interval));
    throw new AppError(
      'PLAN_NOT_FOR_SALE',
      `planName: "${req.planName}" cannot be bought ${req.interval}` +
        ` (valid: ${forSale.map((p) => p.name).join(', ') || 'none, the operator has set no Stripe price'})`,
      { details: { planName: req.planName, interval: req.interval, intervals } },
    );
  }
  const [open] = await ctx.db
    .select({ id: billingSubscriptions.stripeSubscriptionId })
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.userId, userId), inArray(billingSubscriptions.status, OPEN_STATUSES)))
    .orderBy(desc(billingSubscriptions.updatedAt));
  if (open)
    throw new AppError(
      'BILLING_SUBSCRIPTION_EXISTS',
      'You already have a subscription: change or cancel it in the billing portal (POST /api/v1/billing/portal)',
    );

  const customer = await ensureCustomer(ctx, stripe, userId);
  const [trial] = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.planId, plan.id), eq(subscriptions.status, 'trial')));
  const trialLeft =
    trial?.expiresAt && effectiveStatus(trial, now) === 'trial' ? trial.expiresAt.getTime() - now.getTime() : 0;
  const trialData: Stripe.Checkout.SessionCreateParams.SubscriptionData =
    trialLeft >= TRIAL_END_MIN_MS
      ? { trial_end: Math.floor(trial!.expiresAt!.getTime() / 1000) }
      : trialLeft > 0
        ? { trial_period_days: Math.ceil(trialLeft / (24 * HOUR)) }
        : {};
  const metadata = { userId, plan: plan.name };
  const session = await askStripe('checkout', () =>
    stripe.client.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: userId,
      line_items: [{ price: priceOf(stripe.config, plan, req.interval)!, quantity: 1 }],
      success_url: `${ctx.publicUrl}/plans?checkout=success`,
      cancel_url: `${ctx.publicUrl}/plans?checkout=cancelled`,
      subscription_data: { metadata, ...trialData },
      metadata,
    }),
  );
  if (!session.url) throw new AppError('BILLING_PROVIDER_FAILED', 'The payment provider gave no Checkout page');
  return { url: session.url };
}
