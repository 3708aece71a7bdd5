import { eq, sql } from 'drizzle-orm';
import { emailVerifications, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from './audit';
import type { AccountContext, ClientInfo } from './context';
import { LinkTokenError } from './link-token-error';
import { consumeOneTimeToken, discardUnusedTokens, lookUpOneTimeToken } from './one-time-token';
import { startSession, type SignedIn } from './start-session';

const UNKNOWN =
  'This verification link is invalid or has been replaced by a newer one. Request a new verification email.';
const USED = 'This verification link has already been used. Sign in, or request a new verification email.';
const EXPIRED = 'This verification link has expired (links are valid for 24 hours). Request a new verification email.';

/** Use a verification link: the e-mail becomes verified and the user is signed in (the dashboard counts down to /dashboard). */
export async function verifyEmail(ctx: AccountContext, token: string, client: ClientInfo): Promise<SignedIn> {
  const found = await lookUpOneTimeToken(ctx.db, emailVerifications, token);
  if (found.status === 'unknown') throw new LinkTokenError('INVALID_LINK', UNKNOWN, 'unknown');
  if (found.status === 'used') throw new LinkTokenError('INVALID_LINK', USED, 'used');
  if (found.status === 'expired') throw new LinkTokenError('LINK_EXPIRED', EXPIRED, 'expired');
  if (!(await consumeOneTimeToken(ctx.db, emailVerifications, found.id)))
    throw new LinkTokenError('INVALID_LINK', USED, 'used');

  const [user] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(eq(users.id, found.userId))
    .returning();
  if (!user) throw new LinkTokenError('INVALID_LINK', UNKNOWN, 'unknown');
  await discardUnusedTokens(ctx.db, emailVerifications, user.id);
  await recordAudit(ctx.db, { userId: user.id, action: 'email_verified', ip: client.ip });
  if (!user.isActive)
    throw new AppError(
      'ACCOUNT_DISABLED',
      'Your e-mail is verified, but this account has been deactivated. Contact support.',
    );
  return startSession(ctx, user, client);
}
