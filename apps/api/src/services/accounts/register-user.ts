import type { TRegisterRequest, TUser } from '@docflow/contracts';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../passwords';
import { assertStrongPassword } from '../password-strength';
import { recordAudit } from './audit';
import { normalizeEmail, type AccountContext, type ClientInfo } from './context';
import { findUserByEmail, isUniqueViolation } from './find-user';
import { sendVerificationEmail } from './send-verification-email';
import { startSession, type SignedIn } from './start-session';
import { toUserDto } from './to-user-dto';

export type RegisterResult =
  | { verificationRequired: true; user: TUser; mailSent: boolean }
  | { verificationRequired: false; user: TUser; signedIn: SignedIn };

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', 'An account with this email already exists. Sign in instead, or reset your password.');

/**
 * Create an account. With EMAIL_VERIFICATION (the default) the user gets a verification mail and no session; without
 * it the user is signed in at once. Input shape, matching passwords and accepted terms are checked by the route's
 * schema; the strength rule and uniqueness here.
 */
export async function registerUser(
  ctx: AccountContext,
  input: Pick<TRegisterRequest, 'name' | 'email' | 'company' | 'password'>,
  client: ClientInfo,
  opts: { source?: 'web' | 'api' } = {},
): Promise<RegisterResult> {
  const email = normalizeEmail(input.email);
  assertStrongPassword(input.password, { email, name: input.name });
  if (await findUserByEmail(ctx.db, email)) throw emailTaken();

  let user;
  try {
    [user] = await ctx.db
      .insert(users)
      .values({
        email,
        name: input.name.trim(),
        company: input.company?.trim() || null,
        passwordHash: await hashPassword(input.password),
        registrationSource: opts.source ?? 'web',
      })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  await recordAudit(ctx.db, { userId: user!.id, action: 'register', ip: client.ip });

  if (ctx.config.EMAIL_VERIFICATION) {
    const mailSent = await sendVerificationEmail(ctx, user!);
    return { verificationRequired: true, user: await toUserDto(ctx.db, user!), mailSent };
  }
  const signedIn = await startSession(ctx, user!, client);
  return { verificationRequired: false, user: signedIn.user, signedIn };
}
