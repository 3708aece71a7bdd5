import { ConfigError } from './config-error';

/** The Stripe prices of one plan: monthly always, yearly when the operator sets one. */
export interface PlanPrices {
  monthly: string;
  yearly?: string;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Plan name → its prices, from STRIPE_PRICE_<PLAN>_MONTHLY / _YEARLY (plan name upper-cased, `-` as `_`). */
  prices: ReadonlyMap<string, PlanPrices>;
  /** Where the SDK sends its requests instead of api.stripe.com (STRIPE_API_BASE: the tests' stand-in). */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

export interface BillingConfig {
  /** null: payments are off (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET unset); paid plans go through requests. */
  stripe: StripeConfig | null;
  /** Days a plan is kept after a failed payment (BILLING_GRACE_DAYS) before its holder is back on Free. */
  graceDays: number;
}

const PRICE_VAR = /^STRIPE_PRICE_([A-Z0-9_]+)_(MONTHLY|YEARLY)$/;

/** The price variables' name for a plan: `pro` → `PRO`, `team-plus` → `TEAM_PLUS`. */
export const priceVarPlan = (planName: string) => planName.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/**
 * Stripe's settings, read once at start. Both secrets or neither; a price variable must hold a price id (price_…);
 * STRIPE_API_BASE is for tests (a local stand-in answering as Stripe's API does).
 */
export function loadBillingConfig(
  env: NodeJS.ProcessEnv,
  parsed: {
    STRIPE_SECRET_KEY?: string;
    STRIPE_WEBHOOK_SECRET?: string;
    STRIPE_API_BASE?: string;
    BILLING_GRACE_DAYS: number;
  },
): BillingConfig {
  const issues: string[] = [];
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = parsed;
  if ((secretKey === undefined) !== (webhookSecret === undefined))
    issues.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both (payments through Stripe) or neither');
  const found = new Map<string, { monthly?: string; yearly?: string }>();
  for (const [name, value] of Object.entries(env)) {
    const m = PRICE_VAR.exec(name);
    if (!m || value === undefined || value === '') continue;
    if (!/^price_\w+$/.test(value)) {
      issues.push(`${name}: must be a Stripe price id (price_…), not "${value}"`);
      continue;
    }
    const entry = found.get(m[1]!) ?? {};
    entry[m[2] === 'MONTHLY' ? 'monthly' : 'yearly'] = value;
    found.set(m[1]!, entry);
  }
  const prices = new Map<string, PlanPrices>();
  for (const [plan, p] of found) {
    if (!p.monthly)
      issues.push(`STRIPE_PRICE_${plan}_YEARLY: set STRIPE_PRICE_${plan}_MONTHLY too (monthly comes first)`);
    else prices.set(plan, { monthly: p.monthly, ...(p.yearly ? { yearly: p.yearly } : {}) });
  }
  let api: StripeConfig['api'];
  if (parsed.STRIPE_API_BASE) {
    const u = new URL(parsed.STRIPE_API_BASE);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    api = { host: u.hostname, port: Number(u.port || (protocol === 'http' ? 80 : 443)), protocol };
  }
  if (issues.length) throw new ConfigError(issues);
  return {
    stripe: secretKey && webhookSecret ? { secretKey, webhookSecret, prices, ...(api ? { api } : {}) } : null,
    graceDays: parsed.BILLING_GRACE_DAYS,
  };
}
