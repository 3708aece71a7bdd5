import type { TBillingInterval } from '@docflow/contracts';
import { priceVarPlan, type StripeConfig } from '../../config/billing';
import type { PlanRow } from '../../data/schema/index';

/** Whether a plan can be bought: public, active, not free, and priced by the operator (STRIPE_PRICE_<PLAN>_MONTHLY). */
export function intervalsOf(stripe: StripeConfig, plan: PlanRow): TBillingInterval[] {
  if (!plan.isActive || !plan.isPublic || Number(plan.price) === 0) return [];
  const p = stripe.prices.get(priceVarPlan(plan.name));
  if (!p) return [];
  return p.yearly ? ['monthly', 'yearly'] : ['monthly'];
}

export function priceOf(stripe: StripeConfig, plan: PlanRow, interval: TBillingInterval): string | undefined {
  return stripe.prices.get(priceVarPlan(plan.name))?.[interval];
}

/** The plan and interval a Stripe price stands for, among `plans`; undefined for a price the operator did not set. */
export function planOfPrice(
  stripe: StripeConfig,
  plans: readonly PlanRow[],
  priceId: string,
): { plan: PlanRow; interval: TBillingInterval } | undefined {
  for (const plan of plans) {
    const p = stripe.prices.get(priceVarPlan(plan.name));
    if (p?.monthly === priceId) return { plan, interval: 'monthly' };
    if (p?.yearly === priceId) return { plan, interval: 'yearly' };
  }
  return undefined;
}

/** Stripe's zero-decimal currencies (docs.stripe.com/currencies#zero-decimal): their amounts are not in cents. */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));

/** A Stripe amount (smallest unit) in the currency's main unit: 2900 usd → 29. */
export const mainUnit = (amount: number, currency: string) =>
  ZERO_DECIMAL.has(currency.toLowerCase()) ? amount : amount / 100;
