import { eq } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { normalizeEmail, type UserRow } from './context';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return user;
}

/** The signed-in user's row; a user deleted since the token was issued is a 401. */
export async function getUserById(db: Db, id: string): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw new AppError('UNAUTHORIZED', 'This account no longer exists');
  return user;
}

/** PostgreSQL's unique_violation, whichever driver (drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}
