import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingConfig, StripeConfig } from '../../config/billing';
import type { Db } from '../../data/db';
import type { Mailer } from '../mailer';

/** What the billing services need: the database, Stripe (null when payments are off) and how to tell the user. */
export interface BillingContext {
  db: Db;
  config: BillingConfig;
  /** The SDK client and its settings, or null: no STRIPE_SECRET_KEY, every paid-plan purchase is refused. */
  stripe: { client: Stripe; config: StripeConfig } | null;
  mailer: Pick<Mailer, 'send'>;
  /** The dashboard's address: Checkout and the portal send the browser back there. */
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** The Stripe side of the context, or 409 BILLING_NOT_CONFIGURED. */
export type ConnectedStripe = NonNullable<BillingContext['stripe']>;
