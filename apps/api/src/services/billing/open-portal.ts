import { AppError } from '../../lib/app-error';
import type { BillingContext } from './context';
import { findCustomerId } from './customers';
import { askStripe, connectedStripe } from './stripe-client';

/** Stripe's Customer Portal (card, invoices, plan change, cancellation) for a user who paid through Checkout. */
export async function openPortal(ctx: BillingContext, userId: string): Promise<{ url: string }> {
  const stripe = connectedStripe(ctx);
  const customer = await findCustomerId(ctx, userId);
  if (!customer)
    throw new AppError(
      'BILLING_ACCOUNT_MISSING',
      'No billing account yet: buy a plan first (POST /api/v1/billing/checkout)',
    );
  const session = await askStripe('portal', () =>
    stripe.client.billingPortal.sessions.create({ customer, return_url: `${ctx.publicUrl}/plans` }),
  );
  return { url: session.url };
}
