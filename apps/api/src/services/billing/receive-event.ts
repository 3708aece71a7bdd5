import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../data/db';
import { billingCustomers, billingEvents, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { applySubscription } from './apply-subscription';
import type { BillingContext, ConnectedStripe } from './context';
import { mailNotices, recordNotices, type BillingNotice } from './notices';
import { askStripe, connectedStripe } from './stripe-client';
import { snapshotOf, subscriptionIdOf } from './subscription-snapshot';

/** The events that change a user's plan; any other is stored and left. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Stripe signs the exact bytes it sent: the body must reach here unparsed. */
export function verifyStripeEvent(
  stripe: ConnectedStripe,
  rawBody: Buffer,
  signature: string | undefined,
): Stripe.Event {
  if (!signature)
    throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'Stripe-Signature header missing: only Stripe may post here');
  try {
    return stripe.client.webhooks.constructEvent(rawBody, signature, stripe.config.webhookSecret);
  } catch (err) {
    throw new AppError(
      'WEBHOOK_SIGNATURE_INVALID',
      'Stripe-Signature does not match this body and the endpoint secret (STRIPE_WEBHOOK_SECRET), or is too old',
      { cause: err },
    );
  }
}

/**
 * Receive one webhook delivery: verify it, store the event, apply it once. The event's row is inserted in the same
 * transaction that applies it, so of two deliveries (on one node or two, sharing the database) the first to insert
 * applies it and the other finds it there and does nothing; an event whose application fails is rolled back whole
 * and Stripe's retry applies it later. Mails leave after the commit.
 */
export async function receiveStripeEvent(
  ctx: BillingContext,
  rawBody: Buffer,
  signature: string | undefined,
  now = new Date(),
): Promise<{ applied: boolean; outcome: string }> {
  const stripe = connectedStripe(ctx);
  const event = verifyStripeEvent(stripe, rawBody, signature);
  const result = await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [mine] = await tx
      .insert(billingEvents)
      .values({
        id: event.id,
        type: event.type,
        stripeCreated: new Date(event.created * 1000),
        payload: event as unknown as Record<string, unknown>,
      })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!mine) return { applied: false, outcome: 'duplicate', notices: [] as BillingNotice[] };
    const { outcome, notices } = await applyEvent(ctx, stripe, tx, event, now);
    await recordNotices(tx, notices);
    await tx.update(billingEvents).set({ outcome, processedAt: now }).where(eq(billingEvents.id, event.id));
    return { applied: true, outcome, notices };
  });
  if (result.outcome.startsWith('ignored')) ctx.log.warn({ event: event.id, type: event.type }, result.outcome);
  await mailNotices(ctx, result.notices);
  return { applied: result.applied, outcome: result.outcome };
}

async function applyEvent(
  ctx: BillingContext,
  stripe: ConnectedStripe,
  tx: Db,
  event: Stripe.Event,
  now: Date,
): Promise<{ outcome: string; notices: BillingNotice[] }> {
  if (!HANDLED_EVENTS.has(event.type)) return { outcome: 'stored: not an event DocFlow acts on', notices: [] };
  const subscriptionId = subscriptionIdOf(event);
  if (!subscriptionId) return { outcome: 'stored: not about a subscription', notices: [] };
  // Events of one subscription take turns, here and on every node: each reads Stripe's state after the one before.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stripe-subscription:${subscriptionId}`}))`);
  // Asked inside the transaction, so briefly: on a failure the event is rolled back and Stripe delivers it again.
  const subscription = await askStripe('subscription', () =>
    stripe.client.subscriptions.retrieve(subscriptionId, {}, { timeout: 10_000, maxNetworkRetries: 0 }),
  );
  const snapshot = snapshotOf(subscription);
  const session =
    event.type === 'checkout.session.completed' ? (event.data.object as Stripe.Checkout.Session) : undefined;
  const userId = await userOf(tx, snapshot.customerId, session?.client_reference_id ?? snapshot.userId);
  if (!userId) return { outcome: `ignored: customer ${snapshot.customerId} is no DocFlow user's`, notices: [] };
  return applySubscription(tx, {
    snapshot,
    userId,
    eventAt: new Date(event.created * 1000),
    now,
    stripe: stripe.config,
    graceDays: ctx.config.graceDays,
  });
}

/** The user a Stripe customer is: known from our Checkout, else named by the metadata we gave (then remembered). */
async function userOf(tx: Db, customerId: string, named: string | null): Promise<string | null> {
  const [known] = await tx
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.stripeCustomerId, customerId));
  if (known) return known.userId;
  if (!named || !/^[0-9a-f-]{36}$/i.test(named)) return null;
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, named));
  if (!user) return null;
  await tx.insert(billingCustomers).values({ userId: user.id, stripeCustomerId: customerId }).onConflictDoNothing();
  return user.id;
}
