import { z } from 'zod';
import { roles } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../passwords';
import { assertStrongPassword } from '../password-strength';
import { recordAudit } from './audit';
import { normalizeEmail, type UserRow } from './context';
import { findUserByEmail, isUniqueViolation } from './find-user';

export const ZCreateUserInput = z.object({
  email: z.email('email: not a valid e-mail address').transform(normalizeEmail),
  password: z.string().max(128, 'password: at most 128 characters'),
  name: z.string().trim().min(2, 'name: at least 2 characters').max(100, 'name: at most 100 characters'),
  role: z
    .string()
    .default('user')
    .pipe(z.enum(roles, { error: `role: must be one of ${roles.join(', ')}` })),
  company: z.string().trim().max(200).optional(),
});
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;

export interface CreateUserOptions {
  /** A temporary password the user must replace at first sign-in (accounts made from the admin API). */
  mustChangePassword?: boolean;
  /** The admin who made it (audited as admin.user.create on the new user); absent: the CLI. */
  by?: { id: string; ip: string | null };
}

/**
 * An operator-made account (CLI, admin): verified from the start, registration source 'admin', any role. The same
 * strength rule as sign-up applies.
 */
export async function createUser(db: Db, input: TCreateUserInput, opts: CreateUserOptions = {}): Promise<UserRow> {
  const parsed = ZCreateUserInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', parsed.error.issues.map((i) => i.message).join('; '));
  const v = parsed.data;
  assertStrongPassword(v.password, { email: v.email, name: v.name });
  if (await findUserByEmail(db, v.email))
    throw new AppError('EMAIL_TAKEN', `A user with the email ${v.email} already exists`);
  try {
    const [user] = await db
      .insert(users)
      .values({
        email: v.email,
        name: v.name,
        company: v.company || null,
        passwordHash: await hashPassword(v.password),
        role: v.role,
        emailVerifiedAt: new Date(),
        registrationSource: 'admin',
        mustChangePassword: opts.mustChangePassword ?? false,
      })
      .returning();
    await recordAudit(
      db,
      opts.by
        ? {
            userId: opts.by.id,
            action: 'admin.user.create',
            ip: opts.by.ip,
            target: { type: 'user', id: user!.id, label: user!.email },
            details: { role: v.role },
          }
        : { userId: user!.id, action: 'user_created', details: { role: v.role, via: 'cli' } },
    );
    return user!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', `A user with the email ${v.email} already exists`);
    throw err;
  }
}
