import { emailVerifications } from '../../data/schema/index';
import { EMAIL_VERIFICATION_TTL_MS, type AccountContext, type UserRow } from './context';
import { mailLanguage, verificationMail } from './mails';
import { issueOneTimeToken } from './one-time-token';

/**
 * Issue a fresh verification link (24 h, single use; older links stop working) and mail it to
 * `${publicUrl}/verify-email?token=…`, the dashboard page that calls GET /auth/verify-email. The mail goes through the
 * app's queue (services/mail-queue.ts): retried, and logged when lost; the user can ask for a new link.
 */
export async function sendVerificationEmail(
  ctx: AccountContext,
  user: Pick<UserRow, 'id' | 'email' | 'name'> & { language?: string | null },
): Promise<void> {
  const token = await issueOneTimeToken(ctx.db, emailVerifications, user.id, EMAIL_VERIFICATION_TTL_MS);
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send(verificationMail(user.email, user.name, link, mailLanguage(user.language)));
}
