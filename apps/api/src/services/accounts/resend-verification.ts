import { emailVerifications } from '../../data/schema/index';
import { MAIL_COOLDOWN_MS, type AccountContext } from './context';
import { findUserByEmail } from './find-user';
import { lastTokenIssuedAt } from './one-time-token';
import { sendVerificationEmail } from './send-verification-email';

export type ResendOutcome = 'sent' | 'no_account' | 'already_verified' | 'disabled' | 'cooldown';

/**
 * Send a new verification link (older links stop working). The route answers the same whatever the outcome, so the
 * call cannot be used to find out which addresses have accounts; the outcome is for logs and tests. At most one mail
 * per account per minute: further requests are silently dropped.
 */
export async function resendVerification(ctx: AccountContext, email: string): Promise<ResendOutcome> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return 'no_account';
  if (user.emailVerifiedAt) return 'already_verified';
  if (!user.isActive) return 'disabled';
  const last = await lastTokenIssuedAt(ctx.db, emailVerifications, user.id);
  if (last && Date.now() - last.getTime() < MAIL_COOLDOWN_MS) return 'cooldown';
  await sendVerificationEmail(ctx, user);
  return 'sent';
}
