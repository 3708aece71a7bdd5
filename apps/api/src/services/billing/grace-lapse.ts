import { and, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { billingSubscriptions, plans, subscriptions } from '../../data/schema/index';
import type { BillingContext } from './context';
import { day, mailNotices, recordNotices, type BillingNotice } from './notices';

/**
 * Tell the users whose grace period (after a failed payment) has run out that they are on Free. The plan itself ended
 * by its date (its row's expiresAt is the grace's end); this marks the row expired and tells it once: each lapse is
 * claimed by one UPDATE, so two nodes sweeping at once tell it once. Run every few minutes and when the billing
 * state is read; `userId` limits it to one user.
 */
export async function tellLapsedGraces(ctx: BillingContext, now = new Date(), userId?: string): Promise<number> {
  const claimed = await ctx.db
    .update(billingSubscriptions)
    .set({ graceLapseToldAt: now })
    .where(
      and(
        isNotNull(billingSubscriptions.graceUntil),
        lte(billingSubscriptions.graceUntil, now),
        isNull(billingSubscriptions.graceLapseToldAt),
        inArray(billingSubscriptions.status, ['past_due', 'unpaid']),
        ...(userId ? [eq(billingSubscriptions.userId, userId)] : []),
      ),
    )
    .returning();
  if (!claimed.length) return 0;
  const notices: BillingNotice[] = [];
  for (const sub of claimed) {
    await ctx.db
      .update(subscriptions)
      .set({ status: 'expired', updatedAt: now })
      .where(
        and(
          eq(subscriptions.userId, sub.userId),
          eq(subscriptions.planId, sub.planId),
          eq(subscriptions.source, 'stripe'),
          lte(subscriptions.expiresAt, now),
        ),
      );
    const [plan] = await ctx.db.select({ name: plans.displayName }).from(plans).where(eq(plans.id, sub.planId));
    notices.push({
      userId: sub.userId,
      code: 'billing.ended',
      params: { plan: plan?.name ?? '', until: day(sub.graceUntil) },
      dedupeKey: `billing:${sub.stripeSubscriptionId}:billing.ended:grace:${day(sub.graceUntil)}`,
    });
  }
  await recordNotices(ctx.db, notices);
  await mailNotices(ctx, notices);
  return claimed.length;
}
