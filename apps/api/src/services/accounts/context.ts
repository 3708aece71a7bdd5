import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../data/db';
import type { AccessTokens } from '../access-tokens';
import type { Mailer } from '../mailer';
import type { users } from '../../data/schema/index';

/** What the account services need from the app; the Fastify instance satisfies it, and so can a script or a test. */
export interface AccountContext {
  db: Db;
  config: Pick<
    Config,
    | 'publicUrl'
    | 'EMAIL_VERIFICATION'
    | 'REFRESH_TOKEN_TTL_DAYS'
    | 'REMEMBER_ME_TTL_DAYS'
    | 'SESSION_MAX_DAYS'
    | 'REFRESH_REUSE_GRACE_SECONDS'
  >;
  mailer: Mailer;
  accessTokens: AccessTokens;
  log?: FastifyBaseLogger;
}

/** Who is calling: kept on sessions and in the audit log. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export type UserRow = typeof users.$inferSelect;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Lifetimes of the single-use e-mail tokens and the minimum gap between two mails of one kind to one account. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 3600 * 1000;
export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
export const MAIL_COOLDOWN_MS = 60 * 1000;
