import type { TUser } from '@docflow/contracts';
import type { Db } from '../../data/db';
import type { UserRow } from './context';
import { userPlanSummary } from '../subscriptions/index';

/**
 * The one place a user row becomes the `User` the API returns (login, register, me, admin lists…).
 *
 * Plans (spec-1 section 4): `plans` lists the free plan and the user's trials and subscriptions; `plan` is the primary
 * plan: activeplan if set, else the most expensive owned plan (live subscriptions and the plans of active keys), else free.
 */
export async function toUserDto(db: Db, user: UserRow): Promise<TUser> {
  const owned = await userPlanSummary(db, { id: user.id, activePlan: user.activePlan });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    company: user.company,
    role: user.role,
    isActive: user.isActive,
    emailVerified: user.emailVerifiedAt !== null,
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    registrationSource: user.registrationSource,
    country: user.country,
    timezone: user.timezone,
    language: user.language,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    plan: owned.plan,
    plans: owned.plans,
    activeplan: owned.activeplan,
    mustChangePassword: user.mustChangePassword,
  };
}
