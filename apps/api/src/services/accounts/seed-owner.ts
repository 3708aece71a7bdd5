import { eq } from 'drizzle-orm';
import { hashPassword } from '../passwords';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';

/**
 * On start: create the `owner` named by ADMIN_EMAIL/ADMIN_PASSWORD if no such user exists. Returns true if this call
 * created it.
 */
export async function ensureOwner(db: Db, opts: { email?: string; password?: string; name: string }): Promise<boolean> {
  if (!opts.email || !opts.password) return false;
  const email = opts.email.trim().toLowerCase();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing.length > 0) return false;
  // Nodes of a fleet started together all get here: the one insert that wins creates the owner, the others find it
  // made (a unique e-mail is not a start-up failure).
  const created = await db
    .insert(users)
    .values({
      email,
      name: opts.name,
      passwordHash: await hashPassword(opts.password),
      role: 'owner',
      emailVerifiedAt: new Date(),
      registrationSource: 'admin',
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return created.length > 0;
}
