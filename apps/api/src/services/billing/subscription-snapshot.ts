import type Stripe from 'stripe';

/** What DocFlow reads of a Stripe subscription. */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: string;
  priceId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** Cancelled in the portal: it ends at `endsAt` (the period's end, or a date set in Stripe). */
  cancelAtPeriodEnd: boolean;
  endsAt: Date | null;
  endedAt: Date | null;
  /** Set by our Checkout (subscription_data.metadata): the user, should the customer be unknown here. */
  userId: string | null;
}

export type Standing = 'live' | 'grace' | 'ended' | 'pending';

/** What a Stripe status means for the plan: paid (or trialing), payment overdue, over, or not started. */
export function standingOf(status: string): Standing {
  if (status === 'active' || status === 'trialing') return 'live';
  if (status === 'past_due' || status === 'unpaid') return 'grace';
  if (status === 'canceled' || status === 'incomplete_expired' || status === 'paused') return 'ended';
  return 'pending'; // incomplete: the first payment is not made yet
}

const date = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot {
  // Since API version 2025-03-31 the billing period is the item's; older payloads carried it on the subscription.
  const item = sub.items?.data?.[0];
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const periodEnd = date(item?.current_period_end ?? legacy.current_period_end);
  const cancelAt = date(sub.cancel_at);
  return {
    id: sub.id,
    customerId: idOf(sub.customer)!,
    status: sub.status,
    priceId: item?.price?.id ?? null,
    currentPeriodStart: date(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: sub.cancel_at_period_end || cancelAt !== null,
    endsAt: cancelAt ?? (sub.cancel_at_period_end ? periodEnd : null),
    endedAt: date(sub.ended_at),
    userId: sub.metadata?.userId ?? null,
  };
}

/** The subscription an event is about, if any (checkout sessions, subscriptions, subscription invoices). */
export function subscriptionIdOf(event: Stripe.Event): string | null {
  const o = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed':
      return o.mode === 'subscription' ? idOf(o.subscription as string | null) : null;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return o.id as string;
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const parent = o.parent as { subscription_details?: { subscription?: string | { id: string } } } | null;
      return idOf(parent?.subscription_details?.subscription ?? (o.subscription as string | null | undefined));
    }
    default:
      return null;
  }
}
