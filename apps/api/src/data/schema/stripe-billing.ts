import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { plans } from './billing';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Which Stripe customer a user is (migration 0037): made at their first Checkout. */
export const billingCustomers = pgTable('billing_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** A Stripe subscription as last fetched from Stripe; the plan rows in `subscriptions` follow from it. */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    stripeSubscriptionId: text('stripe_subscription_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    stripePriceId: text('stripe_price_id').notNull(),
    billingInterval: text('billing_interval', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status').notNull(),
    currentPeriodStart: ts('current_period_start'),
    currentPeriodEnd: ts('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    endedAt: ts('ended_at'),
    graceUntil: ts('grace_until'),
    graceLapseToldAt: ts('grace_lapse_told_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('billing_subscriptions_user_idx').on(t.userId, t.updatedAt)],
);
export type BillingSubscriptionRow = typeof billingSubscriptions.$inferSelect;

/** Every verified Stripe webhook event, once each (its id is the primary key). */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  stripeCreated: ts('stripe_created').notNull(),
  payload: jsonb('payload').notNull(),
  outcome: text('outcome'),
  receivedAt: ts('received_at').notNull().defaultNow(),
  processedAt: ts('processed_at'),
  /** Why the last attempt to apply it failed (migration 0045); cleared when a later delivery applies it. */
  error: text('error'),
  failedAt: ts('failed_at'),
});
