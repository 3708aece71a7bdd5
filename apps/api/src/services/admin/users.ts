import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type {
  TAdminCreateUserRequest,
  TAdminUpdateUserRequest,
  TAdminUser,
  TAdminUserCounts,
  TAdminUsersQuery,
  TAdminUserStats,
} from '@docflow/contracts';
import { ZAdminCreateUserRequest } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { apiKeys, sessions, usageDaily, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AdminAuditAction } from '../accounts/audit';
import type { UserRow } from '../accounts/context';
import { createUser } from '../accounts/create-user';
import { revokeOtherSessions } from '../accounts/revoke-other-sessions';
import { toUserDto } from '../accounts/to-user-dto';
import { findPlan } from '../plans/index';
import { renewSubscription } from '../subscriptions/index';
import { monthCallsOfUser } from '../usage/month-calls';
import { dayStr, round1 } from '../usage/rollups';
import type { AdminContext } from './context';
import { assertMayAct, assertMayGrant, type UserAction } from './role-rules';
import { temporaryPassword } from './temp-password';
import { underRoleRules } from './under-role-rules';

async function keyCounts(db: Db, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: apiKeys.userId, n: count() })
    .from(apiKeys)
    .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.deletedAt)))
    .groupBy(apiKeys.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

export async function toAdminUsers(db: Db, rows: UserRow[]): Promise<TAdminUser[]> {
  const keys = await keyCounts(
    db,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (r) => ({
      ...(await toUserDto(db, r)),
      mustChangePassword: r.mustChangePassword,
      apiKeysCount: keys.get(r.id) ?? 0,
    })),
  );
}

const toAdminUser = async (db: Db, row: UserRow) => (await toAdminUsers(db, [row]))[0]!;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive match over name, e-mail and company (spec-2: the users page's search box). */
export function userSearch(term: string): SQL {
  const like = `%${escapeLike(term)}%`;
  return or(ilike(users.name, like), ilike(users.email, like), ilike(users.company, like))!;
}

const sortColumns = {
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
  name: users.name,
  email: users.email,
  role: users.role,
} as const;

export async function userCounts(db: Db): Promise<TAdminUserCounts> {
  const [c] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${users.isActive})::int`,
      verified: sql<number>`count(*) filter (where ${users.emailVerifiedAt} is not null)::int`,
      apiRegistrations: sql<number>`count(*) filter (where ${users.registrationSource} = 'api')::int`,
    })
    .from(users);
  return {
    total: c?.total ?? 0,
    active: c?.active ?? 0,
    verified: c?.verified ?? 0,
    apiRegistrations: c?.apiRegistrations ?? 0,
  };
}

export async function listUsers(db: Db, q: TAdminUsersQuery) {
  const where = and(
    q.search ? userSearch(q.search) : undefined,
    q.role ? eq(users.role, q.role) : undefined,
    q.source ? eq(users.registrationSource, q.source) : undefined,
    q.includeInactive ? undefined : eq(users.isActive, true),
  );
  const column = sortColumns[q.sortBy];
  const order = q.sortOrder === 'asc' ? asc(column) : desc(column);
  const [rows, [{ n } = { n: 0 }], counts] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(q.sortBy === 'lastLoginAt' ? sql`${order} nulls last` : order, asc(users.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(users).where(where),
    userCounts(db),
  ]);
  return {
    users: await toAdminUsers(db, rows),
    pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.max(1, Math.ceil(n / q.limit)) },
    counts,
  };
}

export async function searchUsers(db: Db, term: string, limit: number): Promise<TAdminUser[]> {
  const rows = await db.select().from(users).where(userSearch(term)).orderBy(asc(users.email)).limit(limit);
  return toAdminUsers(db, rows);
}

async function userRow(db: Db, id: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'Utilisateur introuvable');
  return row;
}

export async function getUser(db: Db, id: string, opts: { includeInactive: boolean; includeStats: boolean }) {
  const row = await userRow(db, id);
  if (!row.isActive && !opts.includeInactive) throw new AppError('NOT_FOUND', 'Utilisateur introuvable');
  return {
    user: await toAdminUser(db, row),
    ...(opts.includeStats ? { stats: await userStats(db, id) } : {}),
  };
}

export async function userStats(db: Db, id: string, now = new Date()): Promise<TAdminUserStats> {
  await userRow(db, id);
  const today = dayStr(now);
  const [[u], [k], [s], calls] = await Promise.all([
    db
      .select({
        today: sql<number>`coalesce(sum(${usageDaily.requests}) filter (where ${usageDaily.day} = ${today}::date), 0)::int`,
        total: sql<number>`coalesce(sum(${usageDaily.requests}), 0)::int`,
        errors: sql<number>`coalesce(sum(${usageDaily.errors}), 0)::int`,
        ms: sql<number>`coalesce(sum(${usageDaily.totalDurationMs}), 0)::float8`,
      })
      .from(usageDaily)
      .where(eq(usageDaily.userId, id)),
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${apiKeys.isActive})::int`,
        custom: sql<number>`count(*) filter (where ${apiKeys.keyType} = 'custom')::int`,
        lastUsed: sql<Date | string | null>`max(${apiKeys.lastUsedAt})`,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, id), isNull(apiKeys.deletedAt))),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`)),
    // The month's figures where the user's own pages get theirs (services/usage/month-calls.ts): the same numbers.
    monthCallsOfUser(db, id, now),
  ]);
  const total = u?.total ?? 0;
  const errors = u?.errors ?? 0;
  const lastUsed = k?.lastUsed ? new Date(k.lastUsed) : null;
  return {
    requests: {
      today: u?.today ?? 0,
      thisMonth: calls.total.made,
      total,
      errors,
      successRate: total ? round1(((total - errors) / total) * 100) : 100,
      avgResponseTime: total ? round1(Number(u?.ms ?? 0) / total) : 0,
      lastRequestAt: lastUsed ? lastUsed.toISOString() : null,
    },
    monthCalls: calls.total,
    apiKeys: { total: k?.total ?? 0, active: k?.active ?? 0, custom: k?.custom ?? 0 },
    sessions: { active: s?.n ?? 0 },
  };
}

function audit(ctx: AdminContext, action: AdminAuditAction, target: UserRow, details?: Record<string, unknown>) {
  return recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action,
    ip: ctx.ip,
    target: { type: 'user', id: target.id, label: target.email },
    details,
  });
}

async function activePlan(db: Db, name: string) {
  const plan = await findPlan(db, name);
  if (!plan || !plan.isActive) throw new AppError('NOT_FOUND', `Plan "${name}" not found`);
  return plan;
}

export async function createUserByAdmin(ctx: AdminContext, input: TAdminCreateUserRequest) {
  const v = ZAdminCreateUserRequest.parse(input);
  assertMayGrant(ctx.actor, v.role);
  if (v.plan) await activePlan(ctx.db, v.plan);
  const tempPassword = temporaryPassword();
  const row = await createUser(
    ctx.db,
    { email: v.email, name: v.name, role: v.role, company: v.company ?? undefined, password: tempPassword },
    { mustChangePassword: true, by: { id: ctx.actor.id, ip: ctx.ip } },
  );
  if (v.plan) {
    await renewSubscription(ctx.db, row.id, v.plan, null);
    await ctx.db.update(users).set({ activePlan: v.plan }).where(eq(users.id, row.id));
    row.activePlan = v.plan;
  }
  return { user: await toAdminUser(ctx.db, row), tempPassword };
}

/** "The last owner always remains": an owner demoted, deactivated or deleted must leave another active owner. */
async function assertOwnerRemains(tx: Db, target: UserRow): Promise<void> {
  if (target.role !== 'owner' || !target.isActive) return;
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'owner'), eq(users.isActive, true), ne(users.id, target.id)));
  if (n === 0)
    throw new AppError(
      'CONFLICT',
      'Le dernier propriétaire actif ne peut être ni rétrogradé, ni désactivé, ni supprimé',
      {
        details: { rule: 'last-owner' },
      },
    );
}

/** Cut a user off at once: their sessions end and their keys leave this node's cache. */
async function cutOff(ctx: AdminContext, tx: Db, userId: string): Promise<void> {
  await revokeOtherSessions(tx, userId, undefined, 'deactivated_by_admin', { ip: ctx.ip, userAgent: null });
  ctx.keys.evictUser(userId);
}

export async function updateUser(ctx: AdminContext, id: string, patch: TAdminUpdateUserRequest) {
  if (patch.plan) await activePlan(ctx.db, patch.plan);
  const row = await underRoleRules(
    ctx,
    id,
    (actor, target) => {
      const roleChange = patch.role !== undefined && patch.role !== target.role ? patch.role : undefined;
      const deactivating = patch.isActive === false && target.isActive;
      const actions: UserAction[] = ['update'];
      if (roleChange) actions.push('change-role');
      // Granting a plan renews it without end even when it is the current one: a change of plan either way.
      if (patch.plan !== undefined) actions.push('change-plan');
      if (deactivating) actions.push('deactivate');
      for (const a of actions) assertMayAct(actor, target, a, a === 'change-role' ? roleChange : undefined);
    },
    async (tx, target) => {
      if ((patch.role && patch.role !== 'owner') || patch.isActive === false) await assertOwnerRemains(tx, target);
      const [updated] = await tx
        .update(users)
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.company !== undefined ? { company: patch.company || null } : {}),
          ...(patch.role !== undefined ? { role: patch.role } : {}),
          ...(patch.isActive !== undefined ? { isActive: patch.isActive } : {}),
          ...(patch.plan !== undefined ? { activePlan: patch.plan } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, target.id))
        .returning();
      if (patch.isActive === false && target.isActive) await cutOff(ctx, tx, target.id);
      else if (patch.isActive === true) ctx.keys.evictUser(target.id);
      const changes = Object.fromEntries(
        Object.entries(patch)
          .filter(([k, v]) => v !== undefined && (target as Record<string, unknown>)[k] !== v)
          .map(([k, v]) => [
            k,
            { from: (target as Record<string, unknown>)[k === 'plan' ? 'activePlan' : k] ?? null, to: v },
          ]),
      );
      return { updated: updated!, target, changes };
    },
  );
  if (patch.plan) await renewSubscription(ctx.db, id, patch.plan, null);
  await audit(ctx, 'admin.user.update', row.updated, row.changes);
  if (patch.isActive !== undefined && patch.isActive !== row.target.isActive)
    await audit(ctx, patch.isActive ? 'admin.user.activate' : 'admin.user.deactivate', row.updated);
  return toAdminUser(ctx.db, row.updated);
}

export async function setUserStatus(ctx: AdminContext, id: string, isActive: boolean) {
  const row = await underRoleRules(
    ctx,
    id,
    (actor, target) => assertMayAct(actor, target, isActive ? 'update' : 'deactivate'),
    async (tx, target) => {
      if (!isActive) await assertOwnerRemains(tx, target);
      const [updated] = await tx
        .update(users)
        .set({ isActive, updatedAt: new Date() })
        .where(eq(users.id, target.id))
        .returning();
      if (!isActive) await cutOff(ctx, tx, target.id);
      else ctx.keys.evictUser(target.id); // a refusal cached a moment ago must not outlive the reactivation
      return updated!;
    },
  );
  await audit(ctx, isActive ? 'admin.user.activate' : 'admin.user.deactivate', row);
  return toAdminUser(ctx.db, row);
}

export async function deleteUser(ctx: AdminContext, id: string) {
  const { deletedUser, deletedApiKeys, email } = await underRoleRules(
    ctx,
    id,
    (actor, target) => assertMayAct(actor, target, 'delete'),
    async (tx, target) => {
      await assertOwnerRemains(tx, target);
      const dto = await toAdminUser(tx, target);
      const keys = await tx
        .select({ hash: apiKeys.keyHash, deletedAt: apiKeys.deletedAt })
        .from(apiKeys)
        .where(eq(apiKeys.userId, target.id));
      await tx.delete(users).where(eq(users.id, target.id));
      for (const k of keys) ctx.keys.evict(k.hash);
      ctx.keys.evictUser(target.id);
      return {
        deletedUser: { ...dto, isActive: false },
        deletedApiKeys: keys.filter((k) => !k.deletedAt).length,
        email: target.email,
      };
    },
  );
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.user.delete',
    ip: ctx.ip,
    target: { type: 'user', id, label: email },
    details: { deletedApiKeys },
  });
  return { deletedUser, deletedApiKeys };
}
