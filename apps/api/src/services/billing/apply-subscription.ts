import { eq, sql } from 'drizzle-orm';
import type { StripeConfig } from '../../config/billing';
import type { Db } from '../../data/db';
import { billingSubscriptions, plans, subscriptions, type BillingSubscriptionRow } from '../../data/schema/index';
import { day, type BillingNotice } from './notices';
import { planOfPrice } from './prices';
import { standingOf, type Standing, type SubscriptionSnapshot } from './subscription-snapshot';

const DAY = 86_400_000;
const later = (a: Date, b: Date | null) => (b && b > a ? b : a);
const earlier = (a: Date, b: Date | null) => (b && b < a ? b : a);

export interface ApplyInput {
  snapshot: SubscriptionSnapshot;
  userId: string;
  /** When the event was made at Stripe: a failed payment's grace period counts from then. */
  eventAt: Date;
  now: Date;
  stripe: StripeConfig;
  graceDays: number;
}

/**
 * Bring the user's plans in line with their Stripe subscription as just fetched, and say which steps that made. The
 * snapshot is Stripe's present state (not the event's old copy), so events applied in any order end in the same
 * state; the steps are the differences from the state stored before, so a step is told once.
 *
 * The plan of a live subscription is held without end; cancelled, it ends with the period paid for; after a failed
 * payment it is kept until the grace period ends. A plan changed for another keeps the old one to the end of its paid
 * period too: an upgrade applies at once (the dearer plan is the primary one), a downgrade takes effect at that end.
 */
export async function applySubscription(
  tx: Db,
  input: ApplyInput,
): Promise<{ outcome: string; notices: BillingNotice[] }> {
  const { snapshot: snap, userId, now } = input;
  const allPlans = await tx.select().from(plans);
  const priced = snap.priceId ? planOfPrice(input.stripe, allPlans, snap.priceId) : undefined;
  if (!priced) return { outcome: `ignored: price ${snap.priceId ?? '(none)'} is not a plan's`, notices: [] };
  const { plan, interval } = priced;
  const [prev] = await tx
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.stripeSubscriptionId, snap.id));
  const standing = standingOf(snap.status);
  const before: Standing | null = prev ? standingOf(prev.status) : null;
  if (standing === 'pending' && !prev) return { outcome: 'waiting: first payment not made', notices: [] };

  const graceUntil =
    standing === 'grace' ? (prev?.graceUntil ?? new Date(input.eventAt.getTime() + input.graceDays * DAY)) : null;
  const row = {
    userId,
    stripeCustomerId: snap.customerId,
    planId: plan.id,
    stripePriceId: snap.priceId!,
    billingInterval: interval,
    status: snap.status,
    currentPeriodStart: snap.currentPeriodStart,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    endedAt: snap.endedAt,
    graceUntil,
    // A new grace period is told again when it lapses.
    graceLapseToldAt: graceUntil && prev?.graceUntil ? prev.graceLapseToldAt : null,
    updatedAt: now,
  };
  await tx
    .insert(billingSubscriptions)
    .values({ stripeSubscriptionId: snap.id, ...row })
    .onConflictDoUpdate({ target: billingSubscriptions.stripeSubscriptionId, set: row });

  // When the plan stops being held; null: it renews.
  let ends: Date | null;
  if (standing === 'live') ends = snap.cancelAtPeriodEnd ? (snap.endsAt ?? snap.currentPeriodEnd) : null;
  else if (standing === 'grace') ends = graceUntil;
  else if (standing === 'ended') {
    const endedAt = snap.endedAt ?? now;
    // Unpaid: no further than the grace period; paid: the period paid for is kept even if ended early.
    ends = prev?.graceUntil ? earlier(endedAt, prev.graceUntil) : later(endedAt, snap.currentPeriodEnd);
  } else ends = null;
  if (standing !== 'pending') await holdPlan(tx, userId, plan.id, ends, now);

  const prevWasHeld = before === 'live' || before === 'grace';
  const planChanged = prev && prev.planId !== plan.id;
  if (planChanged && prevWasHeld) await holdPlan(tx, userId, prev.planId, prev.currentPeriodEnd ?? now, now, true);

  return {
    outcome: 'applied',
    notices: steps(prev, before, standing, snap, { plan, ends, graceUntil, userId }, allPlans),
  };
}

/**
 * The user's row of a plan (a trial converted to paid is this same row: its trial reminders stop with its `trial`
 * status), held from Stripe until `ends` (null: renewing). `keepEarlier`: an old plan left for
 * another keeps an earlier end it already had.
 */
async function holdPlan(tx: Db, userId: string, planId: string, ends: Date | null, now: Date, keepEarlier = false) {
  const status = ends && ends <= now ? ('cancelled' as const) : ('active' as const);
  await tx
    .insert(subscriptions)
    .values({ userId, planId, status, source: 'stripe', startedAt: now, expiresAt: ends })
    .onConflictDoUpdate({
      target: [subscriptions.userId, subscriptions.planId],
      set: keepEarlier
        ? {
            expiresAt: sql`least(coalesce(${subscriptions.expiresAt}, ${ends}), ${ends})`,
            status: sql`case when least(coalesce(${subscriptions.expiresAt}, ${ends}), ${ends}) <= ${now} then 'cancelled' else ${subscriptions.status} end`,
            updatedAt: now,
          }
        : { status, source: 'stripe', expiresAt: ends, updatedAt: now },
    });
}

function steps(
  prev: BillingSubscriptionRow | undefined,
  before: Standing | null,
  now: Standing,
  snap: SubscriptionSnapshot,
  cur: {
    plan: { id: string; displayName: string; price: number };
    ends: Date | null;
    graceUntil: Date | null;
    userId: string;
  },
  allPlans: { id: string; displayName: string; price: number }[],
): BillingNotice[] {
  const out: BillingNotice[] = [];
  const plan = cur.plan.displayName;
  const tell = (code: BillingNotice['code'], params: Omit<BillingNotice['params'], 'plan'>, key: string) =>
    out.push({ userId: cur.userId, code, params: { plan, ...params }, dedupeKey: `billing:${snap.id}:${code}:${key}` });
  const renews = day(snap.currentPeriodEnd);

  if (now === 'live' && (before === null || before === 'pending'))
    tell('billing.subscribed', { until: renews }, 'start');
  if (now === 'live' && before === 'grace') tell('billing.payment-recovered', {}, day(prev?.graceUntil));
  if (now === 'live' && before === 'ended') tell('billing.subscribed', { until: renews }, `again:${renews}`);
  if (prev && prev.planId !== cur.plan.id && (before === 'live' || before === 'grace') && now !== 'ended') {
    const old = allPlans.find((p) => p.id === prev.planId);
    const from = old?.displayName ?? '';
    if (Number(cur.plan.price) >= Number(old?.price ?? 0))
      tell('billing.upgraded', { from }, `${prev.planId}>${cur.plan.id}:${renews}`);
    else
      tell(
        'billing.downgrade-scheduled',
        { from, until: day(prev.currentPeriodEnd) },
        `${prev.planId}>${cur.plan.id}:${renews}`,
      );
  }
  if (now === 'live' && prev && before === 'live') {
    if (!prev.cancelAtPeriodEnd && snap.cancelAtPeriodEnd)
      tell('billing.cancel-scheduled', { until: day(cur.ends) }, day(cur.ends));
    if (prev.cancelAtPeriodEnd && !snap.cancelAtPeriodEnd) tell('billing.resumed', { until: renews }, renews);
  }
  if (now === 'grace' && before !== 'grace')
    tell('billing.payment-failed', { until: day(cur.graceUntil) }, day(cur.graceUntil));
  // A lapsed grace period was told already (grace-lapse.ts) when Stripe gives up on the payment later.
  if (now === 'ended' && before !== 'ended' && !prev?.graceLapseToldAt)
    tell('billing.ended', { until: day(cur.ends) }, 'end');
  return out;
}
