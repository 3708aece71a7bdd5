import { and, asc, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import {
  ZCreateCustomKeyRequest,
  type TCreateCustomKeyRequest,
  type TCustomKey,
  type TCustomLimitsDraft,
} from '@docflow/contracts';
import type { z } from 'zod';
import type { TMonthCalls, ZCustomKeysQuery } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { apiKeys, plans, users, type ApiKeyRow, type PlanRow } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AdminAuditAction } from '../accounts/audit';
import { createApiKey, monthlyUsage, toApiKeyDto } from '../api-keys/index';
import type { AdminContext } from './context';
import type { TApiLanguage } from '../../lib/i18n/language';
import { checkCustomLimits, requireValidLimits, suggestLimits } from './custom-limits';
import { assertMayAct } from './role-rules';
import { underRoleRules } from './under-role-rules';

type Owner = { id: string; email: string; name: string };

export function toCustomKeyDto(
  row: ApiKeyRow,
  plan: PlanRow,
  owner: Owner,
  usage: TMonthCalls | undefined,
  fullKey?: string,
): TCustomKey {
  return { ...toApiKeyDto(row, plan, usage, fullKey), owner, description: row.description ?? null };
}

const ownerColumns = { id: users.id, email: users.email, name: users.name };

/** Preview (spec-2: the create modal's 500 ms live check): the verdict, and suggestions from the user's real peaks. */
export async function previewCustomLimits(db: Db, draft: TCustomLimitsDraft, userId?: string, language?: TApiLanguage) {
  const { preview } = checkCustomLimits(draft, language);
  return { ...preview, suggestions: userId ? await suggestLimits(db, userId) : null };
}

function audit(ctx: AdminContext, action: AdminAuditAction, row: ApiKeyRow, owner: Owner, details?: object) {
  return recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action,
    ip: ctx.ip,
    target: { type: 'api_key', id: row.id, label: `${row.name} (${owner.email})` },
    details: { ownerId: owner.id, ...details },
  });
}

/**
 * A custom key for another user, under the role rules (an admin makes keys only for lower ranks, never for
 * themselves: a key with custom limits is a plan). The key records its maker, so it reads only the jobs it makes:
 * the admin saw its secret, and the user's own documents stay theirs (services/jobs/index.ts).
 */
export async function createCustomKey(ctx: AdminContext, input: TCreateCustomKeyRequest) {
  const v = ZCreateCustomKeyRequest.parse(input);
  const { limits } = requireValidLimits(v.customLimits, ctx.language);
  const made = await underRoleRules(
    ctx,
    v.userId,
    (actor, target) => assertMayAct(actor, target, 'manage-keys'),
    async (tx, owner) => {
      if (!owner.isActive)
        throw new AppError('VALIDATION_ERROR', 'Cet utilisateur est désactivé : réactivez-le d’abord');
      const key = await createApiKey(tx, owner.id, {
        name: v.keyOptions.name,
        environment: v.keyOptions.environment,
        description: v.keyOptions.description,
        planName: v.keyOptions.planName,
        customLimits: limits,
        createdBy: ctx.actor.id,
      });
      return { ...key, owner: { id: owner.id, email: owner.email, name: owner.name } };
    },
  );
  await audit(ctx, 'admin.key.create', made.row, made.owner, { limits });
  return {
    apiKey: toCustomKeyDto(made.row, made.plan, made.owner, undefined, made.key),
    preview: await previewCustomLimits(ctx.db, v.customLimits, undefined, ctx.language),
  };
}

type CustomRow = Awaited<ReturnType<typeof customRow>>;

async function customRow(db: Db, id: string) {
  const [r] = await db
    .select({ key: apiKeys, plan: plans, owner: ownerColumns })
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.keyType, 'custom'), isNull(apiKeys.deletedAt)));
  if (!r) throw new AppError('NOT_FOUND', 'Clé API personnalisée introuvable');
  return r;
}

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name, lastUsedAt: apiKeys.lastUsedAt } as const;

export async function listCustomKeys(db: Db, q: z.infer<typeof ZCustomKeysQuery>) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(apiKeys.keyType, 'custom'),
    isNull(apiKeys.deletedAt),
    q.userId ? eq(apiKeys.userId, q.userId) : undefined,
    q.isActive === undefined ? undefined : eq(apiKeys.isActive, q.isActive),
    like
      ? or(ilike(apiKeys.name, like), ilike(apiKeys.keyPrefix, like), ilike(users.email, like), ilike(users.name, like))
      : undefined,
  );
  const column = sortColumns[q.sortBy];
  const order = q.sortOrder === 'asc' ? asc(column) : desc(column);
  const [rows, [{ n } = { n: 0 }]] = await Promise.all([
    db
      .select({ key: apiKeys, plan: plans, owner: ownerColumns })
      .from(apiKeys)
      .innerJoin(plans, eq(plans.id, apiKeys.planId))
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(where)
      .orderBy(q.sortBy === 'lastUsedAt' ? sql`${order} nulls last` : order, asc(apiKeys.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(where),
  ]);
  const usage = await monthlyUsage(
    db,
    rows.map((r) => r.key.id),
  );
  return {
    apiKeys: rows.map((r) => toCustomKeyDto(r.key, r.plan, r.owner, usage.get(r.key.id))),
    pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.max(1, Math.ceil(n / q.limit)) },
  };
}

/** A custom key and its owner, when the actor may manage that owner's keys (role-rules.ts). */
async function underKeyRules<T>(ctx: AdminContext, id: string, change: (tx: Db, r: CustomRow) => Promise<T>) {
  const r = await customRow(ctx.db, id);
  return underRoleRules(
    ctx,
    r.owner.id,
    (actor, target) => assertMayAct(actor, target, 'manage-keys'),
    (tx) => change(tx, r),
  );
}

/** New limits for a custom key: the next call runs under them (the key leaves this node's cache at once). */
export async function updateCustomLimits(ctx: AdminContext, id: string, draft: TCustomLimitsDraft) {
  const { limits } = requireValidLimits(draft, ctx.language);
  const { r, row } = await underKeyRules(ctx, id, async (tx, r) => {
    // Validity counts from the key's creation, as when it was made with these limits.
    const expiresAt = limits.validityDays
      ? new Date(r.key.createdAt.getTime() + limits.validityDays * 86_400_000)
      : null;
    const [row] = await tx
      .update(apiKeys)
      .set({ customLimits: limits, expiresAt, updatedAt: new Date() })
      .where(eq(apiKeys.id, id))
      .returning();
    return { r, row };
  });
  ctx.keys.evict(r.key.keyHash);
  await audit(ctx, 'admin.key.update_limits', row!, r.owner, { from: r.key.customLimits, to: limits });
  const usage = await monthlyUsage(ctx.db, [id]);
  return {
    apiKey: toCustomKeyDto(row!, r.plan, r.owner, usage.get(id)),
    preview: await previewCustomLimits(ctx.db, draft, undefined, ctx.language),
  };
}

/** Deleting a custom key removes its limits with it (its "custom plan" lives on the key). */
export async function deleteCustomKey(ctx: AdminContext, id: string) {
  const r = await underKeyRules(ctx, id, async (tx, r) => {
    await tx
      .update(apiKeys)
      .set({ deletedAt: new Date(), isActive: false, customLimits: null, updatedAt: new Date() })
      .where(eq(apiKeys.id, id));
    return r;
  });
  ctx.keys.evict(r.key.keyHash);
  await audit(ctx, 'admin.key.delete', r.key, r.owner);
  return { id };
}
