import type { Config } from '../../config/env';
import type { BillingContext } from './context';
import { tellLapsedGraces } from './grace-lapse';
import { createStripeClient } from './stripe-client';

/** The billing services' context from the configuration: Stripe's client when payments are connected. */
export function createBillingContext(deps: {
  db: BillingContext['db'];
  config: Config;
  mailer: BillingContext['mailer'];
  /** Read at each use: a test server learns its address only once it listens. */
  publicUrl: () => string;
  log: BillingContext['log'];
}): BillingContext {
  const { billing } = deps.config;
  return {
    db: deps.db,
    config: billing,
    stripe: billing.stripe ? { client: createStripeClient(billing.stripe), config: billing.stripe } : null,
    mailer: deps.mailer,
    log: deps.log,
    get publicUrl() {
      return deps.publicUrl();
    },
  };
}

/** Look for lapsed grace periods every `everyMs` (each told once, whichever node finds it); returns the stopper. */
export function startGraceSweep(ctx: BillingContext, everyMs = 10 * 60_000): () => void {
  if (!ctx.stripe) return () => undefined;
  const timer = setInterval(() => {
    tellLapsedGraces(ctx).catch((err) => ctx.log.warn({ err }, 'grace sweep failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
