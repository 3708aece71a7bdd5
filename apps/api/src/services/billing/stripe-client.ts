import Stripe from 'stripe';
import type { StripeConfig } from '../../config/billing';
import { AppError } from '../../lib/app-error';
import type { BillingContext, ConnectedStripe } from './context';

/** The official SDK, pointed at api.stripe.com or (STRIPE_API_BASE, tests) at a stand-in answering as Stripe does. */
export function createStripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'DocFlow' },
    ...(config.api ?? {}),
  });
}

/** Stripe, or the typed refusal of a server where payments are not connected. */
export function connectedStripe(ctx: BillingContext): ConnectedStripe {
  if (!ctx.stripe)
    throw new AppError(
      'BILLING_NOT_CONFIGURED',
      'Payments are not enabled on this server: ask for a paid plan from the plans page instead',
    );
  return ctx.stripe;
}

/** A call to Stripe's API: its failures become 502 BILLING_PROVIDER_FAILED (the cause goes to the log only). */
export async function askStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('BILLING_PROVIDER_FAILED', `The payment provider did not answer (${what}); try again shortly`, {
      cause: err,
    });
  }
}
