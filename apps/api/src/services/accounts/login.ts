import { eq } from 'drizzle-orm';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../passwords';
import { recordAudit } from './audit';
import { normalizeEmail, type AccountContext, type ClientInfo } from './context';
import { findUserByEmail } from './find-user';
import { reservePasswordCheck, type PasswordGuard } from './password-guard';
import { startSession, type SignedIn } from './start-session';

/** The same words for an unknown e-mail and a wrong password: the answer must not tell which accounts exist. */
export const INVALID_CREDENTIALS_MESSAGE = 'Email ou mot de passe incorrect';

/**
 * Check e-mail and password and open a session; with device cookies, the answer's cookie value marks this browser as
 * a known device of the account (services/device-cookies.ts).
 *
 * Order matters: the throttle first (a place reserved, or 429, before any work), then the password — also against a dummy hash for unknown
 * e-mails, so timing reveals nothing — and only after a right password the account's state (disabled, unverified),
 * so those answers are given only to someone who knows the password.
 */
export async function login(
  ctx: AccountContext,
  input: { email: string; password: string; rememberMe?: boolean },
  client: ClientInfo,
  guard?: PasswordGuard,
): Promise<SignedIn & { deviceCookie?: string }> {
  const email = normalizeEmail(input.email);
  const ip = client.ip ?? 'unknown';
  let attempt, trustedDevice;
  try {
    ({ attempt, trustedDevice } = await reservePasswordCheck(guard, email, ip));
  } catch (err) {
    await recordAudit(ctx.db, { action: 'login_refused', ip: client.ip, details: { email, reason: 'throttled' } });
    throw err;
  }

  const user = await findUserByEmail(ctx.db, email);
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !ok) {
    await attempt?.failed();
    await recordAudit(ctx.db, {
      userId: user?.id,
      action: 'login_failed',
      ip: client.ip,
      details: { email, reason: user ? 'wrong_password' : 'unknown_email', ...(trustedDevice && { trustedDevice }) },
    });
    throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
  }
  await attempt?.succeeded();

  if (!user.isActive) {
    await recordAudit(ctx.db, {
      userId: user.id,
      action: 'login_refused',
      ip: client.ip,
      details: { reason: 'disabled' },
    });
    throw new AppError(
      'ACCOUNT_DISABLED',
      'This account has been deactivated. Contact support if you think this is a mistake.',
    );
  }
  if (ctx.config.EMAIL_VERIFICATION && !user.emailVerifiedAt) {
    await recordAudit(ctx.db, {
      userId: user.id,
      action: 'login_refused',
      ip: client.ip,
      details: { reason: 'email_not_verified' },
    });
    throw new AppError(
      'EMAIL_NOT_VERIFIED',
      'Please verify your email address before signing in: click the link we sent you, or ask for a new one.',
    );
  }

  if (needsRehash(user.passwordHash)) {
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, user.id));
  }
  const signedIn = await startSession(ctx, user, client, { rememberMe: input.rememberMe });
  await recordAudit(ctx.db, {
    userId: user.id,
    action: 'login_success',
    ip: client.ip,
    details: {
      sessionId: signedIn.sessionId,
      rememberMe: input.rememberMe ?? false,
      ...(trustedDevice && { trustedDevice }),
    },
  });
  return { ...signedIn, deviceCookie: guard?.devices?.renew(guard.deviceCookie, email) };
}
