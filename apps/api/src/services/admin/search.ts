import { asc, eq, ilike, isNull, and, or } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, plans, users } from '../../data/schema/index';
import { monthlyUsage } from '../api-keys/index';
import { toCustomKeyDto } from './custom-keys';
import { searchUsers } from './users';

/** GET /admin/search: users (name, e-mail, company) and keys (name, prefix, owner) matching `q`. */
export async function adminSearch(db: Db, q: { q: string; type: 'all' | 'users' | 'keys'; limit: number }) {
  const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [found, keys] = await Promise.all([
    q.type === 'keys' ? Promise.resolve([]) : searchUsers(db, q.q, q.limit),
    q.type === 'users'
      ? Promise.resolve([])
      : db
          .select({ key: apiKeys, plan: plans, owner: { id: users.id, email: users.email, name: users.name } })
          .from(apiKeys)
          .innerJoin(plans, eq(plans.id, apiKeys.planId))
          .innerJoin(users, eq(users.id, apiKeys.userId))
          .where(
            and(
              isNull(apiKeys.deletedAt),
              or(ilike(apiKeys.name, like), ilike(apiKeys.keyPrefix, like), ilike(users.email, like)),
            ),
          )
          .orderBy(asc(apiKeys.name))
          .limit(q.limit),
  ]);
  const usage = await monthlyUsage(
    db,
    keys.map((k) => k.key.id),
  );
  return {
    users: found,
    apiKeys: keys.map((k) => toCustomKeyDto(k.key, k.plan, k.owner, usage.get(k.key.id))),
  };
}
