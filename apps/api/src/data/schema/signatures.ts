import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Signing certificates stored for an account (migration 0044): `sealed` is the only copy of the key, encrypted. */
export const signingCertificates = pgTable(
  'signing_certificates',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    subject: text('subject').notNull(),
    commonName: text('common_name'),
    issuer: text('issuer').notNull(),
    serialNumber: text('serial_number').notNull(),
    validFrom: ts('valid_from').notNull(),
    validTo: ts('valid_to').notNull(),
    sealed: text('sealed').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('signing_certificates_user_idx').on(t.userId, t.createdAt)],
);
