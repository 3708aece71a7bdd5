import { emailVerifications } from '../../data/schema/index';
import { EMAIL_VERIFICATION_TTL_MS, type AccountContext, type UserRow } from './context';
import { verificationMail } from './mails';
import { issueOneTimeToken } from './one-time-token';

/**
 * Issue a fresh verification link (24 h, single use; older links stop working) and mail it to
 * `${publicUrl}/verify-email?token=…`, the dashboard page that calls GET /auth/verify-email.
 * A mail failure is logged, not thrown: the account exists and the user can ask for a new link.
 */
export async function sendVerificationEmail(
  ctx: AccountContext,
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
): Promise<boolean> {
  const token = await issueOneTimeToken(ctx.db, emailVerifications, user.id, EMAIL_VERIFICATION_TTL_MS);
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  try {
    await ctx.mailer.send(verificationMail(user.email, user.name, link));
    return true;
  } catch (err) {
    ctx.log?.error({ err, userId: user.id }, 'verification e-mail could not be sent');
    return false;
  }
}
