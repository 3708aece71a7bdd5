import type { TRegisterRequest, TUser } from '@docflow/contracts';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../passwords';
import { assertStrongPassword } from '../password-strength';
import { recordAudit } from './audit';
import { normalizeEmail, type AccountContext, type ClientInfo, type UserRow } from './context';
import { findUserByEmail, isUniqueViolation } from './find-user';
import { accountExistsMail, mailLanguage } from './mails';
import { sendVerificationEmail } from './send-verification-email';
import { startSession, type SignedIn } from './start-session';

export type RegisterResult =
  { verificationRequired: true } | { verificationRequired: false; user: TUser; signedIn: SignedIn };

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', 'An account with this email already exists. Sign in instead, or reset your password.');

/**
 * Create an account. With EMAIL_VERIFICATION (the default) the user gets a verification mail and no session; without
 * it the user is signed in at once. Input shape, matching passwords and accepted terms are checked by the route's
 * schema; the strength rule and uniqueness here.
 *
 * With verification on, an address that already has an account gets the same answer, after the same work (the
 * password is hashed all the same), as a new one: its owner is mailed instead, so the answer tells a stranger nothing
 * about which addresses have accounts. Without verification the new user is signed in at once, which a taken address
 * cannot be: 409 EMAIL_TAKEN then (that mode is for development and closed deployments).
 *
 * `language` (from the request's Accept-Language) is stored as the user's language: their first mail is in it.
 */
export async function registerUser(
  ctx: AccountContext,
  input: Pick<TRegisterRequest, 'name' | 'email' | 'company' | 'password'>,
  client: ClientInfo,
  opts: { source?: 'web' | 'api'; language?: string } = {},
): Promise<RegisterResult> {
  const email = normalizeEmail(input.email);
  assertStrongPassword(input.password, { email, name: input.name });
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) return addressTaken(ctx, existing, client, input.password);

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
        // The first mail goes out before any profile exists: the language the sign-up was asked in (the dashboard
        // sends its own as Accept-Language) becomes the user's, and the verification mail is written in it.
        language: opts.language ?? null,
      })
      .returning();
  } catch (err) {
    // A sign-up for the same address won the race (this one's password is already hashed).
    if (isUniqueViolation(err)) return addressTaken(ctx, await findUserByEmail(ctx.db, email), client);
    throw err;
  }
  await recordAudit(ctx.db, { userId: user!.id, action: 'register', ip: client.ip });

  if (ctx.config.EMAIL_VERIFICATION) {
    await sendVerificationEmail(ctx, user!);
    return { verificationRequired: true };
  }
  const signedIn = await startSession(ctx, user!, client);
  return { verificationRequired: false, user: signedIn.user, signedIn };
}

/**
 * A sign-up for an address that has an account: its owner is told by mail, the caller gets the usual answer after the
 * same work (`password`, when not hashed yet, is hashed all the same).
 */
async function addressTaken(
  ctx: AccountContext,
  owner: UserRow | undefined,
  client: ClientInfo,
  password?: string,
): Promise<RegisterResult> {
  if (!ctx.config.EMAIL_VERIFICATION) throw emailTaken();
  if (password !== undefined) await hashPassword(password);
  if (owner) {
    await recordAudit(ctx.db, { userId: owner.id, action: 'register_existing_email', ip: client.ip });
    await ctx.mailer.send(
      accountExistsMail(owner.email, owner.name, `${ctx.config.publicUrl}/login`, mailLanguage(owner.language)),
    );
  }
  return { verificationRequired: true };
}
