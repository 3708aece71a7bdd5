import { eq, isNull, sql } from 'drizzle-orm';
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
 * Receive one webhook delivery: verify it, store the event, apply it once. The event's row is claimed (locked) in the
 * transaction that applies it, so of two deliveries (on one node or two, sharing the database) the first applies it
 * and the other, once the first commits, finds it processed and does nothing. An event whose application fails is
 * rolled back whole and its failure kept on its row (for the admins' list of events); Stripe's retry applies it
 * later. Mails leave after the commit.
 */
export async function receiveStripeEvent(
  ctx: BillingContext,
  rawBody: Buffer,
  signature: string | undefined,
  now = new Date(),
): Promise<{ applied: boolean; outcome: string }> {
  const stripe = connectedStripe(ctx);
  const event = verifyStripeEvent(stripe, rawBody, signature);
  const row = {
    id: event.id,
    type: event.type,
    stripeCreated: new Date(event.created * 1000),
    payload: event as unknown as Record<string, unknown>,
  };
  let result: { applied: boolean; outcome: string; notices: BillingNotice[] };
  try {
    result = await ctx.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await tx.insert(billingEvents).values(row).onConflictDoNothing();
      const [claimed] = await tx
        .select({ processedAt: billingEvents.processedAt })
        .from(billingEvents)
        .where(eq(billingEvents.id, event.id))
        .for('update');
      if (claimed?.processedAt) return { applied: false, outcome: 'duplicate', notices: [] as BillingNotice[] };
      const { outcome, notices } = await applyEvent(ctx, stripe, tx, event, now);
      await recordNotices(tx, notices);
      await tx
        .update(billingEvents)
        .set({ outcome, processedAt: now, error: null })
        .where(eq(billingEvents.id, event.id));
      return { applied: true, outcome, notices };
    });
  } catch (err) {
    // Kept for the admins' list; a database too broken to keep it must not hide the failure itself.
    await recordFailure(ctx.db, row, err, now).catch((e: unknown) =>
      ctx.log.warn({ event: event.id, err: e }, 'the failure of a Stripe event could not be recorded'),
    );
    throw err;
  }
  if (result.outcome.startsWith('ignored')) ctx.log.warn({ event: event.id, type: event.type }, result.outcome);
  await mailNotices(ctx, result.notices);
  return { applied: result.applied, outcome: result.outcome };
}

/** What went wrong, for an administrator: the message and its cause's (Stripe's own words, when it was Stripe). */
function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${message}${cause}`.slice(0, 2000);
}

/** The failure on the event's row (made if this was its first delivery), unless another delivery applied it since. */
async function recordFailure(db: Db, row: typeof billingEvents.$inferInsert, err: unknown, now: Date): Promise<void> {
  const error = describeFailure(err);
  await db
    .insert(billingEvents)
    .values({ ...row, error, failedAt: now })
    .onConflictDoUpdate({
      target: billingEvents.id,
      set: { error, failedAt: now },
      where: isNull(billingEvents.processedAt),
    });
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
