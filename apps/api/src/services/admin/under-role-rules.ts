import { eq, sql } from 'drizzle-orm';
import type { TUserRole } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import type { UserRow } from '../accounts/context';
import type { AdminContext } from './context';

/**
 * Admin changes to users and their resources take turns, so two owners demoting each other cannot leave none (see
 * assertOwnerRemains in users.ts), and a key is never made for a user whose rank changes meanwhile.
 */
const USER_ADMIN_LOCK = 727_002;

/**
 * Under the user-admin lock, re-read the actor (their role may have changed since their token was checked) and the
 * target, check the role rules (role-rules.ts), then run `change`. Every admin action on another user's account or
 * resources goes through here.
 */
export async function underRoleRules<T>(
  ctx: AdminContext,
  targetId: string,
  check: (actor: { id: string; role: TUserRole }, target: UserRow) => void,
  change: (tx: Db, target: UserRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${USER_ADMIN_LOCK})`);
    const [actor] = await tx
      .select({ id: users.id, role: users.role, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, ctx.actor.id));
    if (!actor?.isActive) throw new AppError('ACCOUNT_DISABLED', 'This account has been deactivated');
    const [target] = await tx.select().from(users).where(eq(users.id, targetId));
    if (!target) throw new AppError('NOT_FOUND', 'Utilisateur introuvable');
    check(actor, target);
    return change(tx as unknown as Db, target);
  });
}
