import { desc, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { TBillingInvoice, TBillingNextInvoice, TBillingState } from '@docflow/contracts';
import { billingSubscriptions, plans } from '../../data/schema/index';
import { listPublicPlans } from '../plans/index';
import type { BillingContext } from './context';
import { findCustomerId } from './customers';
import { tellLapsedGraces } from './grace-lapse';
import { intervalsOf, mainUnit } from './prices';
import { standingOf } from './subscription-snapshot';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const fromUnix = (s: number) => new Date(s * 1000).toISOString();

const toInvoice = (i: Stripe.Invoice): TBillingInvoice => ({
  id: i.id,
  number: i.number,
  amount: mainUnit(i.status === 'paid' ? i.amount_paid : i.amount_due, i.currency),
  currency: i.currency.toUpperCase(),
  status: i.status,
  date: fromUnix(i.created),
  hostedInvoiceUrl: i.hosted_invoice_url ?? null,
  pdfUrl: i.invoice_pdf ?? null,
});

/**
 * The billing card's figures: the user's latest Stripe subscription as stored from the webhooks, and, asked of Stripe
 * now, the next invoice and the past ones. Stripe not answering leaves the invoices out (invoicesAvailable false)
 * rather than failing the plans page.
 */
export async function getBillingState(ctx: BillingContext, userId: string, now = new Date()): Promise<TBillingState> {
  if (!ctx.stripe)
    return {
      provider: 'none',
      plans: [],
      subscription: null,
      nextInvoice: null,
      invoices: [],
      invoicesAvailable: true,
    };
  const stripe = ctx.stripe;
  await tellLapsedGraces(ctx, now, userId);
  const forSale = (await listPublicPlans(ctx.db))
    .map((p) => ({ planName: p.name, intervals: intervalsOf(stripe.config, p) }))
    .filter((p) => p.intervals.length > 0);
  // The live one first, else the latest.
  const [row] = await ctx.db
    .select({ sub: billingSubscriptions, plan: plans })
    .from(billingSubscriptions)
    .innerJoin(plans, eq(plans.id, billingSubscriptions.planId))
    .where(eq(billingSubscriptions.userId, userId))
    .orderBy(
      sql`case when ${billingSubscriptions.status} in ('active', 'trialing', 'past_due', 'unpaid') then 0 else 1 end`,
      desc(billingSubscriptions.updatedAt),
    )
    .limit(1);
  const subscription = row
    ? {
        id: row.sub.stripeSubscriptionId,
        planName: row.plan.name,
        planDisplayName: row.plan.displayName,
        interval: row.sub.billingInterval,
        status: row.sub.status,
        currentPeriodStart: iso(row.sub.currentPeriodStart),
        currentPeriodEnd: iso(row.sub.currentPeriodEnd),
        cancelAtPeriodEnd: row.sub.cancelAtPeriodEnd,
        graceUntil: iso(row.sub.graceUntil),
        endedAt: iso(row.sub.endedAt),
      }
    : null;

  const customer = await findCustomerId(ctx, userId);
  let invoices: TBillingInvoice[] = [];
  let nextInvoice: TBillingNextInvoice | null = null;
  let invoicesAvailable = true;
  if (customer) {
    try {
      const renewing = row && standingOf(row.sub.status) !== 'ended' && !row.sub.cancelAtPeriodEnd;
      const [list, preview] = await Promise.all([
        stripe.client.invoices.list({ customer, limit: 12 }),
        renewing
          ? stripe.client.invoices.createPreview({ customer, subscription: row.sub.stripeSubscriptionId })
          : Promise.resolve(null),
      ]);
      invoices = list.data.filter((i) => i.status !== 'draft').map(toInvoice);
      if (preview)
        nextInvoice = {
          amount: mainUnit(preview.amount_due, preview.currency),
          currency: preview.currency.toUpperCase(),
          date:
            iso(row!.sub.currentPeriodEnd) ??
            (preview.next_payment_attempt ? fromUnix(preview.next_payment_attempt) : null),
        };
    } catch (err) {
      ctx.log.warn({ err }, 'Stripe did not list the invoices');
      invoicesAvailable = false;
    }
  }
  return { provider: 'stripe', plans: forSale, subscription, nextInvoice, invoices, invoicesAvailable };
}
