import { passwordResets } from '../../data/schema/index';
import { recordAudit } from './audit';
import { MAIL_COOLDOWN_MS, PASSWORD_RESET_TTL_MS, type AccountContext, type ClientInfo } from './context';
import { findUserByEmail } from './find-user';
import { mailLanguage, passwordResetMail } from './mails';
import { issueOneTimeToken, lastTokenIssuedAt } from './one-time-token';

export type ResetRequestOutcome = 'sent' | 'no_account' | 'disabled' | 'cooldown';

/**
 * Mail a password-reset link to `${publicUrl}/reset-password?token=…` (1 h, single use, older links stop working).
 * Same answer from the route whatever the outcome; at most one mail per account per minute.
 */
export async function requestPasswordReset(
  ctx: AccountContext,
  email: string,
  client: ClientInfo,
): Promise<ResetRequestOutcome> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return 'no_account';
  if (!user.isActive) return 'disabled';
  const last = await lastTokenIssuedAt(ctx.db, passwordResets, user.id);
  if (last && Date.now() - last.getTime() < MAIL_COOLDOWN_MS) return 'cooldown';

  const token = await issueOneTimeToken(ctx.db, passwordResets, user.id, PASSWORD_RESET_TTL_MS);
  await recordAudit(ctx.db, { userId: user.id, action: 'password_reset_requested', ip: client.ip });
  const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  // Queued, not awaited (services/mail-queue.ts): waiting for the mail server would make a known address slower.
  await ctx.mailer.send(passwordResetMail(user.email, user.name, link, mailLanguage(user.language)));
  return 'sent';
}
