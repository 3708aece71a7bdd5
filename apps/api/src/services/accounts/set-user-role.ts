import { eq } from 'drizzle-orm';
import { ZUserRole } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from './audit';
import { normalizeEmail, type UserRow } from './context';
import { findUserByEmail } from './find-user';

/** Change a user's role (CLI). Takes effect at once: `authenticate` reads the role from the database, not the token. */
export async function setUserRole(db: Db, email: string, role: string): Promise<UserRow> {
  const parsedRole = ZUserRole.safeParse(role);
  if (!parsedRole.success)
    throw new AppError('VALIDATION_ERROR', `role: must be one of ${ZUserRole.options.join(', ')}`);
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError('NOT_FOUND', `No user with the email ${normalizeEmail(email)}`);
  const [updated] = await db
    .update(users)
    .set({ role: parsedRole.data, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  await recordAudit(db, {
    userId: user.id,
    action: 'role_changed',
    details: { from: user.role, to: parsedRole.data, via: 'cli' },
  });
  return updated!;
}
