import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, plans, subscriptions, users, type PlanRow } from '../../data/schema/index';
import type { TCustomLimits, TSubscriptionStatus, TUserRole } from '@docflow/contracts';
import { effectiveStatus } from '../subscriptions/index';
import { limitSubjectOf } from '../limits/subject';

/** Everything the guard needs about a presented key, read in one query. */
export interface KeyRecord {
  keyId: string;
  keyHash: string;
  userId: string;
  name: string;
  keyPrefix: string;
  environment: 'development' | 'staging' | 'production';
  keyType: 'standard' | 'custom';
  /** Whether the user made this key themselves (not an admin for them): only such a key reads all their jobs. */
  madeByOwner: boolean;
  customLimits: TCustomLimits | null;
  /** The counters its calls go to: the user's subscription to the plan, or the custom key's own (limits/subject.ts). */
  limitSubject: string;
  isActive: boolean;
  deleted: boolean;
  expiresAt: Date | null;
  userActive: boolean;
  /** The owner's role: admins keep processing during maintenance. */
  userRole: TUserRole;
  plan: PlanRow;
  /** The user's subscription to the key's plan (null: none; the free plan needs none). */
  subscription: { id: string; status: TSubscriptionStatus; expiresAt: Date | null } | null;
}

export function findKeyByHash(db: Db, keyHash: string): Promise<KeyRecord | null> {
  return findKey(db, eq(apiKeys.keyHash, keyHash));
}

/** The same record by the key's id (a job admitted with the key runs later as it). */
export function findKeyById(db: Db, keyId: string): Promise<KeyRecord | null> {
  return findKey(db, eq(apiKeys.id, keyId));
}

async function findKey(db: Db, where: SQL): Promise<KeyRecord | null> {
  const [r] = await db
    .select({ key: apiKeys, plan: plans, userActive: users.isActive, userRole: users.role, sub: subscriptions })
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(subscriptions, and(eq(subscriptions.userId, apiKeys.userId), eq(subscriptions.planId, apiKeys.planId)))
    .where(where);
  if (!r) return null;
  return {
    keyId: r.key.id,
    keyHash: r.key.keyHash,
    userId: r.key.userId,
    name: r.key.name,
    keyPrefix: r.key.keyPrefix,
    environment: r.key.environment,
    keyType: r.key.keyType,
    madeByOwner: r.key.createdBy === r.key.userId,
    customLimits: r.key.keyType === 'custom' ? r.key.customLimits : null,
    limitSubject: limitSubjectOf({
      keyId: r.key.id,
      userId: r.key.userId,
      planId: r.key.planId,
      keyType: r.key.keyType,
    }),
    isActive: r.key.isActive,
    deleted: r.key.deletedAt !== null,
    expiresAt: r.key.expiresAt,
    userActive: r.userActive,
    userRole: r.userRole,
    plan: r.plan,
    subscription: r.sub ? { id: r.sub.id, status: r.sub.status, expiresAt: r.sub.expiresAt } : null,
  };
}

/** Whether the key's plan may be used now: free always; a paid plan needs a live trial or subscription. */
export function planState(rec: KeyRecord, now = new Date()): 'ok' | 'expired' | 'none' {
  if (rec.keyType === 'custom' || Number(rec.plan.price) === 0) return 'ok';
  if (!rec.subscription) return 'none';
  const s = effectiveStatus(rec.subscription, now);
  return s === 'trial' || s === 'active' ? 'ok' : 'expired';
}
