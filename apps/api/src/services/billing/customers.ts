import { eq } from 'drizzle-orm';
import { billingCustomers, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import type { BillingContext, ConnectedStripe } from './context';
import { askStripe } from './stripe-client';

export async function findCustomerId(ctx: BillingContext, userId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId));
  return row?.id ?? null;
}

/**
 * The user's Stripe customer, made at their first Checkout. The idempotency key makes two clicks at once (or two
 * nodes) get one customer from Stripe.
 */
export async function ensureCustomer(ctx: BillingContext, stripe: ConnectedStripe, userId: string): Promise<string> {
  const known = await findCustomerId(ctx, userId);
  if (known) return known;
  const [user] = await ctx.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const customer = await askStripe('customer', () =>
    stripe.client.customers.create(
      { email: user.email, name: user.name, metadata: { userId } },
      { idempotencyKey: `docflow-customer-${userId}` },
    ),
  );
  await ctx.db.insert(billingCustomers).values({ userId, stripeCustomerId: customer.id }).onConflictDoNothing();
  return (await findCustomerId(ctx, userId)) ?? customer.id;
}
