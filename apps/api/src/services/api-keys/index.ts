import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type {
  TApiKey,
  TApiKeyEnvironment,
  TMonthCalls,
  TApiKeyLimits,
  TCustomLimits,
  TEndpointGroup,
} from '@docflow/contracts';
import type { Db } from '../../data/db';
import { apiKeys, plans, users, type ApiKeyRow, type PlanRow } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/tokens';
import { notify } from '../notifications';
import { findPlan } from '../plans/index';
import { ownedPlans } from '../subscriptions/index';
import { monthCallsOfKeys, noCalls } from '../usage/month-calls';
import { generateApiKey } from './key-format';
import { checkedExpiry } from './key-expiry';

const DAY = 86_400_000;

export { monthStartDay } from '../usage/month-calls';

/** The limits a key runs under: its custom limits when it is a custom key, else its plan's. */
export function effectiveLimits(
  plan: PlanRow,
  custom: TCustomLimits | null | undefined,
): TApiKeyLimits & { allowedEndpoints: TEndpointGroup[] } {
  if (custom) {
    return {
      maxRequestsPerMinute: custom.maxRequestsPerMinute,
      maxRequestsPerHour: custom.maxRequestsPerHour,
      maxRequestsPerMonth: custom.maxRequestsPerMonth,
      maxFileSize: custom.maxFileSize,
      maxPagesPerPdf: custom.maxPagesPerPdf,
      burstLimit: custom.burstLimit,
      allowedEndpoints: custom.allowedEndpoints,
    };
  }
  return {
    maxRequestsPerMinute: plan.maxRequestsPerMinute,
    maxRequestsPerHour: plan.maxRequestsPerHour,
    maxRequestsPerMonth: plan.maxRequestsPerMonth,
    maxFileSize: plan.maxFileSize,
    maxPagesPerPdf: plan.maxPagesPerPdf,
    burstLimit: plan.burstLimit,
    allowedEndpoints: plan.allowedEndpoints,
  };
}

/** What a card shows to tell keys apart: the secret's last four characters, and nothing more of it. */
export const lastFour = (key: string): string => key.slice(-4);

/** `calls`: the key's figures this month (monthlyUsage); none when it made no call. */
export function toApiKeyDto(row: ApiKeyRow, plan: PlanRow, calls: TMonthCalls | undefined, fullKey?: string): TApiKey {
  const monthCalls = calls ?? noCalls();
  const custom = row.keyType === 'custom' ? row.customLimits : null;
  const { allowedEndpoints, ...limits } = effectiveLimits(plan, custom);
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    ...(fullKey ? { key: fullKey } : {}),
    keyPrefix: row.keyPrefix,
    keyLastFour: row.keyLastFour ?? null,
    isActive: row.isActive,
    planName: plan.name,
    planDisplayName: custom ? 'Custom' : plan.displayName,
    currentUsage: monthCalls.counted,
    monthCalls,
    limits,
    allowedEndpoints,
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    keyType: row.keyType,
    customPlan: custom ? { displayName: 'Custom', limits: custom } : null,
  };
}

/** This UTC month's calls per key (made, counted, not counted). */
export const monthlyUsage = monthCallsOfKeys;

export interface CreateApiKeyInput {
  name: string;
  planName?: string;
  environment?: TApiKeyEnvironment;
  description?: string;
  /** Admin custom keys (and tests): limits replacing the plan's. Skips the plan-ownership check. */
  customLimits?: TCustomLimits;
  /** Who makes the key when it is not the user themselves (an admin's custom key): it then reads only its own jobs. */
  createdBy?: string;
}

/**
 * Standard keys a user may create on one plan per rolling 24 hours, deleted ones included. The quota is the
 * subscription's, shared by its keys and kept across deletions, so churning keys gains no calls; this only stops a
 * create/delete loop from filling the keys table and the notifications, while leaving room to replace every key twice.
 */
export const keyCreationsPerDay = (plan: PlanRow) => Math.max(5, 2 * plan.maxApiKeysPerUser);

/**
 * Create a key on a plan the user owns (free always; a paid plan through a live trial or subscription). With no plan
 * named: 'pro' when owned, else 'free'. Keys are counted per plan: a user holds at most the plan's
 * maxApiKeysPerUser keys on that plan (disabled keys count, deleted ones do not: a deleted key's calls stay counted
 * on the subscription, so deleting one frees a slot but no quota), and creates at most keyCreationsPerDay of them.
 */
export async function createApiKey(db: Db, userId: string, input: CreateApiKeyInput, now = new Date()) {
  const owned = await ownedPlans(db, userId, now);
  const bySub = owned.filter((o) => o.via === 'subscription').map((o) => o.plan.name);
  const planName = input.planName ?? (bySub.includes('pro') ? 'pro' : 'free');
  const plan = await findPlan(db, planName);
  if (!plan || !plan.isActive) throw new AppError('NOT_FOUND', `Plan "${planName}" not found`);
  if (!input.customLimits && !bySub.includes(plan.name)) {
    throw new AppError(
      'PLAN_NOT_OWNED',
      `You do not hold the ${plan.displayName} plan: start its free trial (POST /api/v1/my/subscriptions) or choose one of: ${bySub.join(', ')}`,
      { details: { planName: plan.name, ownedPlans: bySub } },
    );
  }
  const environment = input.environment ?? 'development';
  const { key, prefix } = generateApiKey(environment);
  const validityDays = input.customLimits ? input.customLimits.validityDays : plan.validityDays;
  const row = await db.transaction(async (tx) => {
    // Serialise creations of one user so two concurrent requests cannot both take the last slot.
    await tx.execute(sql`select id from ${users} where ${users.id} = ${userId} for update`);
    if (!input.customLimits) {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.userId, userId),
            eq(apiKeys.planId, plan.id),
            eq(apiKeys.keyType, 'standard'),
            isNull(apiKeys.deletedAt),
          ),
        );
      if (n >= plan.maxApiKeysPerUser) {
        throw new AppError(
          'KEY_LIMIT_REACHED',
          `The ${plan.displayName} plan allows ${plan.maxApiKeysPerUser} API key${plan.maxApiKeysPerUser > 1 ? 's' : ''}; delete one or choose another plan`,
          { details: { planName: plan.name, maxApiKeysPerUser: plan.maxApiKeysPerUser } },
        );
      }
      const perDay = keyCreationsPerDay(plan);
      const recent = await tx
        .select({ at: apiKeys.createdAt })
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.userId, userId),
            eq(apiKeys.planId, plan.id),
            eq(apiKeys.keyType, 'standard'),
            gt(apiKeys.createdAt, new Date(now.getTime() - DAY)),
          ),
        )
        .orderBy(desc(apiKeys.createdAt))
        .limit(perDay);
      if (recent.length >= perDay) {
        // The slot frees when the oldest of the last `perDay` creations turns a day old.
        const retryAfter = Math.max(1, Math.ceil((recent.at(-1)!.at.getTime() + DAY - now.getTime()) / 1000));
        throw new AppError(
          'RATE_LIMIT_EXCEEDED',
          `At most ${perDay} ${plan.displayName} keys can be created per 24 hours; retry in ${Math.ceil(retryAfter / 60)} min`,
          {
            headers: { 'Retry-After': retryAfter },
            details: { planName: plan.name, retryAfter, keyCreationsPerDay: perDay },
          },
        );
      }
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        userId,
        planId: plan.id,
        name: input.name,
        description: input.description ?? null,
        environment,
        keyHash: sha256(key),
        keyPrefix: prefix,
        keyLastFour: lastFour(key),
        keyType: input.customLimits ? 'custom' : 'standard',
        customLimits: input.customLimits ?? null,
        createdBy: input.createdBy ?? userId,
        expiresAt: validityDays ? new Date(now.getTime() + validityDays * DAY) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return inserted!;
  });
  await notify(db, userId, {
    type: 'success',
    title: 'Clé API créée',
    message: `La clé « ${row.name} » (${plan.displayName}, ${environment}) a été créée. Conservez-la : elle ne sera plus affichée.`,
    code: 'api-key.created',
    params: { name: row.name, plan: plan.displayName, environment },
  });
  return { row, plan, key, dto: toApiKeyDto(row, plan, undefined, key) };
}

async function ownRow(db: Db, userId: string, id: string) {
  const [r] = await db
    .select({ key: apiKeys, plan: plans })
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.deletedAt)));
  if (!r) throw new AppError('NOT_FOUND', 'API key not found');
  return r;
}

export async function listApiKeys(db: Db, userId: string, q: { page: number; limit: number; isActive?: boolean }) {
  const where = and(
    eq(apiKeys.userId, userId),
    isNull(apiKeys.deletedAt),
    q.isActive === undefined ? undefined : eq(apiKeys.isActive, q.isActive),
  );
  const [rows, [{ n } = { n: 0 }]] = await Promise.all([
    db
      .select({ key: apiKeys, plan: plans })
      .from(apiKeys)
      .innerJoin(plans, eq(plans.id, apiKeys.planId))
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  const usage = await monthlyUsage(
    db,
    rows.map((r) => r.key.id),
  );
  return {
    apiKeys: rows.map((r) => toApiKeyDto(r.key, r.plan, usage.get(r.key.id))),
    pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.max(1, Math.ceil(n / q.limit)) },
  };
}

export async function getApiKey(db: Db, userId: string, id: string): Promise<TApiKey> {
  const r = await ownRow(db, userId, id);
  const usage = await monthlyUsage(db, [id]);
  return toApiKeyDto(r.key, r.plan, usage.get(id));
}

export async function updateApiKey(
  db: Db,
  userId: string,
  id: string,
  patch: { name?: string; isActive?: boolean; expiresAt?: string | null },
  now = new Date(),
) {
  const r = await ownRow(db, userId, id);
  const expiresAt =
    patch.expiresAt === undefined
      ? undefined
      : checkedExpiry(
          patch.expiresAt,
          {
            createdAt: r.key.createdAt,
            keyType: r.key.keyType,
            customLimits: r.key.customLimits ?? null,
            planValidityDays: r.plan.validityDays,
          },
          now,
        );
  const [row] = await db
    .update(apiKeys)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.isActive !== undefined ? { isActive: patch.isActive } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      updatedAt: new Date(),
    })
    .where(eq(apiKeys.id, id))
    .returning();
  const usage = await monthlyUsage(db, [id]);
  return { dto: toApiKeyDto(row!, r.plan, usage.get(id)), oldHash: r.key.keyHash };
}

/** Soft delete: the row stays for the usage history's names, the key never authenticates again. */
export async function deleteApiKey(db: Db, userId: string, id: string) {
  const r = await ownRow(db, userId, id);
  await db
    .update(apiKeys)
    .set({ deletedAt: new Date(), isActive: false, updatedAt: new Date() })
    .where(eq(apiKeys.id, id));
  return { oldHash: r.key.keyHash };
}

/** A new secret for the same key: the old one stops working at once, usage and limits stay with the key. */
export async function regenerateApiKey(db: Db, userId: string, id: string) {
  const r = await ownRow(db, userId, id);
  const { key, prefix } = generateApiKey(r.key.environment);
  const now = new Date();
  const [row] = await db
    .update(apiKeys)
    .set({ keyHash: sha256(key), keyPrefix: prefix, keyLastFour: lastFour(key), regeneratedAt: now, updatedAt: now })
    .where(eq(apiKeys.id, id))
    .returning();
  await notify(db, userId, {
    type: 'info',
    title: 'Clé API régénérée',
    message: `La clé « ${row!.name} » a été régénérée : l'ancienne valeur ne fonctionne plus. Mettez à jour vos services.`,
    code: 'api-key.regenerated',
    params: { name: row!.name },
  });
  const usage = await monthlyUsage(db, [id]);
  return { dto: toApiKeyDto(row!, r.plan, usage.get(id), key), oldHash: r.key.keyHash, key };
}
