import { sql } from 'drizzle-orm';
import { boolean, index, inet, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    company: text('company'),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin', 'super_admin', 'owner'] })
      .notNull()
      .default('user'),
    isActive: boolean('is_active').notNull().default(true),
    emailVerifiedAt: ts('email_verified_at'),
    registrationSource: text('registration_source', { enum: ['web', 'api', 'admin'] })
      .notNull()
      .default('web'),
    country: text('country'),
    timezone: text('timezone'),
    language: text('language'),
    activePlan: text('active_plan'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
    /** Set when an admin created the account with a temporary password: every route but a password change refuses. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** Single-use e-mail tokens; only their SHA-256 is kept. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * One row per signed-in device. The refresh token rotates on every use; `tokenHash` is the SHA-256 of the current
 * one and every spent hash goes to session_used_tokens, so presenting an old token is detected as reuse and revokes
 * the session.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    generation: integer('generation').notNull().default(0),
    userAgent: text('user_agent'),
    ip: inet('ip'),
    rememberMe: boolean('remember_me').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Every refresh token a session has used: a later presentation of one of these is reuse. */
export const sessionUsedTokens = pgTable(
  'session_used_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    usedAt: ts('used_at').notNull().defaultNow(),
  },
  (t) => [index('session_used_tokens_session_idx').on(t.sessionId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id'),
    action: text('action').notNull(),
    ip: text('ip'),
    details: text('details'),
    /** Admin actions: what was acted on (migration 0023). `userId` is then the admin who acted. */
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_user_idx').on(t.userId), index('audit_log_created_idx').on(t.createdAt.desc())],
);

/** Settings every node reads (migration 0023): maintenance mode. */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
