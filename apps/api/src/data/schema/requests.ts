import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { plans } from './billing';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A customer asking for a paid plan when no payment provider is set (migration 0038): an admin grants or declines. */
export const planRequests = pgTable(
  'plan_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    billingPeriod: text('billing_period', { enum: ['monthly', 'yearly'] }).notNull(),
    message: text('message'),
    status: text('status', { enum: ['pending', 'granted', 'declined', 'cancelled'] })
      .notNull()
      .default('pending'),
    grantedPlanId: uuid('granted_plan_id').references(() => plans.id),
    grantedUntil: ts('granted_until'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    decisionNote: text('decision_note'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('plan_requests_user_idx').on(t.userId, t.createdAt)],
);
export type PlanRequestRow = typeof planRequests.$inferSelect;

/** A message sent from the Support page, answered (marked handled, with a reply) by an admin. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['open', 'handled'] })
      .notNull()
      .default('open'),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: ts('handled_at'),
    reply: text('reply'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('support_messages_user_idx').on(t.userId, t.createdAt)],
);
export type SupportMessageRow = typeof supportMessages.$inferSelect;
