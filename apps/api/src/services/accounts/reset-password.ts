import { eq, sql } from 'drizzle-orm';
import { passwordResets, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../passwords';
import { assertStrongPassword } from '../password-strength';
import { recordAudit } from './audit';
import type { AccountContext, ClientInfo } from './context';
import { getUserById } from './find-user';
import { LinkTokenError } from './link-token-error';
import { consumeOneTimeToken, discardUnusedTokens, lookUpOneTimeToken } from './one-time-token';
import { revokeOtherSessions } from './revoke-other-sessions';
import { startSession, type SignedIn } from './start-session';

const UNKNOWN = 'This password-reset link is invalid or has been replaced by a newer one. Request a new one.';
const USED = 'This password-reset link has already been used. Request a new one if you still need it.';
const EXPIRED = 'This password-reset link has expired (links are valid for 1 hour). Request a new one.';

/**
 * Set a new password from a reset link. The strength check comes before the link is spent, so a rejected password
 * can be retried with the same link. Every session is signed out, the e-mail counts as verified (the user proved
 * the mailbox), and the user is signed in on a new session.
 */
export async function resetPassword(
  ctx: AccountContext,
  input: { token: string; password: string },
  client: ClientInfo,
): Promise<SignedIn> {
  const found = await lookUpOneTimeToken(ctx.db, passwordResets, input.token);
  if (found.status === 'unknown') throw new LinkTokenError('INVALID_LINK', UNKNOWN, 'unknown');
  if (found.status === 'used') throw new LinkTokenError('INVALID_LINK', USED, 'used');
  if (found.status === 'expired') throw new LinkTokenError('LINK_EXPIRED', EXPIRED, 'expired');

  const current = await getUserById(ctx.db, found.userId);
  if (!current.isActive)
    throw new AppError(
      'ACCOUNT_DISABLED',
      'This account has been deactivated. Contact support if you think this is a mistake.',
    );
  assertStrongPassword(input.password, { email: current.email, name: current.name });
  const passwordHash = await hashPassword(input.password);
  if (!(await consumeOneTimeToken(ctx.db, passwordResets, found.id)))
    throw new LinkTokenError('INVALID_LINK', USED, 'used');

  const [user] = await ctx.db
    .update(users)
    .set({
      passwordHash,
      mustChangePassword: false,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, current.id))
    .returning();
  await discardUnusedTokens(ctx.db, passwordResets, current.id);
  const revokedCount = await revokeOtherSessions(ctx.db, current.id, undefined, 'password_reset', client);
  await recordAudit(ctx.db, {
    userId: current.id,
    action: 'password_reset',
    ip: client.ip,
    details: { revokedSessions: revokedCount },
  });
  return startSession(ctx, user!, client);
}
