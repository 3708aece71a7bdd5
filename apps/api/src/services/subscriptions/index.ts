import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { TRIAL_DAYS, type TSubscription, type TSubscriptionStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import {
  apiKeys,
  plans,
  subscriptions,
  trialClaims,
  users,
  type PlanRow,
  type SubscriptionRow,
} from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { notify } from '../notifications';
import { findPlan } from '../plans/index';
import { trialMailbox } from './trial-mailbox';

const DAY = 86_400_000;
/** A trial with this many days left or fewer gets a reminder notification. */
export const TRIAL_REMINDER_DAYS = 3;

/** The status as of `now`: a trial or a dated subscription past its end reads `expired`. */
export function effectiveStatus(
  row: Pick<SubscriptionRow, 'status' | 'expiresAt'>,
  now = new Date(),
): TSubscriptionStatus {
  if ((row.status === 'trial' || row.status === 'active') && row.expiresAt && row.expiresAt <= now) return 'expired';
  return row.status;
}
export const isLive = (s: TSubscriptionStatus) => s === 'trial' || s === 'active';

function toDto(row: SubscriptionRow | null, plan: PlanRow, now = new Date(), since?: Date): TSubscription {
  if (!row) {
    // The free plan every user holds without a row.
    return {
      id: null,
      planName: plan.name,
      planDisplayName: plan.displayName,
      status: 'active',
      isActive: true,
      source: 'signup',
      startedAt: since ? since.toISOString() : null,
      expiresAt: null,
      daysRemaining: null,
    };
  }
  const status = effectiveStatus(row, now);
  return {
    id: row.id,
    planName: plan.name,
    planDisplayName: plan.displayName,
    status,
    isActive: isLive(status),
    source: row.source,
    startedAt: row.startedAt.toISOString(),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    daysRemaining:
      row.expiresAt && isLive(status) ? Math.max(0, Math.ceil((row.expiresAt.getTime() - now.getTime()) / DAY)) : null,
  };
}

async function userRows(db: Db, userId: string) {
  return db
    .select({ sub: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(plans.sortOrder);
}

/** Every plan the user holds or held, the implicit free plan first. */
export async function listSubscriptions(db: Db, userId: string): Promise<TSubscription[]> {
  await remindExpiringTrials(db, userId);
  const [rows, free, [user]] = await Promise.all([
    userRows(db, userId),
    findPlan(db, 'free'),
    db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId)),
  ]);
  const now = new Date();
  const out = rows.map((r) => toDto(r.sub, r.plan, now));
  if (free && !rows.some((r) => r.plan.name === 'free')) out.unshift(toDto(null, free, now, user?.createdAt));
  return out;
}

/**
 * Start a plan: the free plan becomes a permanent active subscription; a paid plan starts a 14-day trial without a
 * card, once per plan and user (a second try, even after the trial ended, is 409 TRIAL_ALREADY_USED).
 */
export async function startSubscription(
  db: Db,
  userId: string,
  planName: string,
  now = new Date(),
): Promise<TSubscription> {
  const plan = await findPlan(db, planName);
  if (!plan || !plan.isActive || !plan.isPublic) throw new AppError('NOT_FOUND', `Plan "${planName}" not found`);
  if (Number(plan.price) === 0) {
    const [row] = await db
      .insert(subscriptions)
      .values({ userId, planId: plan.id, status: 'active', source: 'signup', startedAt: now, expiresAt: null })
      .onConflictDoUpdate({
        target: [subscriptions.userId, subscriptions.planId],
        set: { status: 'active', expiresAt: null, updatedAt: now },
      })
      .returning();
    return toDto(row!, plan, now);
  }
  const [existing] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.planId, plan.id)));
  if (existing) throw trialUsed(plan, existing, now);
  // Once per mailbox too, whatever the account: a+1@x and a+2@x (or a deleted and re-made account) share one trial.
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const mailbox = trialMailbox(owner?.email ?? userId);
  const [claim] = await db
    .insert(trialClaims)
    .values({ planId: plan.id, mailbox, userId, claimedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!claim) {
    const [earlier] = await db
      .select({ userId: trialClaims.userId })
      .from(trialClaims)
      .where(and(eq(trialClaims.planId, plan.id), eq(trialClaims.mailbox, mailbox)));
    // The same user racing with itself is left to the subscription's own uniqueness below.
    if (earlier?.userId !== userId)
      throw new AppError(
        'TRIAL_ALREADY_USED',
        `The free trial of the ${plan.displayName} plan has already been used with this e-mail address; ask an administrator to renew it`,
        { details: { plan: plan.name } },
      );
  }
  const expiresAt = new Date(now.getTime() + TRIAL_DAYS * DAY);
  const [row] = await db
    .insert(subscriptions)
    .values({ userId, planId: plan.id, status: 'trial', source: 'trial', startedAt: now, expiresAt })
    .onConflictDoNothing()
    .returning();
  if (!row) throw trialUsed(plan, null, now); // a concurrent start won
  await notify(db, userId, {
    type: 'success',
    title: `Essai ${plan.displayName} activé`,
    message: `Votre essai gratuit de ${TRIAL_DAYS} jours du plan ${plan.displayName} est actif jusqu'au ${expiresAt.toISOString().slice(0, 10)}. Aucune carte bancaire n'est nécessaire.`,
    code: 'trial.started',
    params: { plan: plan.displayName, days: TRIAL_DAYS, until: expiresAt.toISOString().slice(0, 10) },
    dedupeKey: `trial-start:${row.id}`,
  });
  return toDto(row, plan, now);
}

function trialUsed(plan: PlanRow, row: SubscriptionRow | null, now: Date): AppError {
  const live = row && isLive(effectiveStatus(row, now));
  return new AppError(
    'TRIAL_ALREADY_USED',
    live
      ? `You already hold the ${plan.displayName} plan`
      : `The free trial of the ${plan.displayName} plan has already been used; ask an administrator to renew it`,
  );
}

/**
 * Renew (or grant) a plan for `days` days from now, or from the current end when that is later; `days` null grants
 * it without end. For the admin API: an expired trial's keys work again at once (within the key cache's second).
 * `quiet`: the caller tells the user itself (a granted plan request says why, in its own notification).
 */
export async function renewSubscription(
  db: Db,
  userId: string,
  planName: string,
  days: number | null,
  now = new Date(),
  opts: { quiet?: boolean } = {},
): Promise<TSubscription> {
  const plan = await findPlan(db, planName);
  if (!plan) throw new AppError('NOT_FOUND', `Plan "${planName}" not found`);
  const [existing] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.planId, plan.id)));
  const base =
    existing?.expiresAt && existing.expiresAt > now && isLive(effectiveStatus(existing, now))
      ? existing.expiresAt
      : now;
  const expiresAt = days === null ? null : new Date(base.getTime() + days * DAY);
  const [row] = await db
    .insert(subscriptions)
    .values({ userId, planId: plan.id, status: 'active', source: 'admin', startedAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [subscriptions.userId, subscriptions.planId],
      set: { status: 'active', source: 'admin', expiresAt, updatedAt: now },
    })
    .returning();
  if (!opts.quiet)
    await notify(db, userId, {
      type: 'success',
      title: `Plan ${plan.displayName} renouvelé`,
      message: expiresAt
        ? `Votre plan ${plan.displayName} est actif jusqu'au ${expiresAt.toISOString().slice(0, 10)}.`
        : `Votre plan ${plan.displayName} est actif sans date de fin.`,
      ...(expiresAt
        ? { code: 'plan.renewed', params: { plan: plan.displayName, until: expiresAt.toISOString().slice(0, 10) } }
        : { code: 'plan.renewed-open', params: { plan: plan.displayName } }),
    });
  return toDto(row!, plan, now);
}

/** Notify once per trial when it has 3 days or fewer left, and once when it has ended. Never throws. */
export async function remindExpiringTrials(db: Db, userId: string, now = new Date()): Promise<void> {
  try {
    const rows = await db
      .select({ sub: subscriptions, plan: plans })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.status, 'trial'),
          lte(subscriptions.expiresAt, new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY)),
        ),
      );
    for (const { sub, plan } of rows) {
      const ended = sub.expiresAt! <= now;
      const days = Math.max(0, Math.ceil((sub.expiresAt!.getTime() - now.getTime()) / DAY));
      await notify(
        db,
        userId,
        ended
          ? {
              type: 'warning',
              title: `Essai ${plan.displayName} terminé`,
              message: `Votre essai du plan ${plan.displayName} est terminé : ses clés API répondent 402 jusqu'au renouvellement par un administrateur.`,
              code: 'trial.ended',
              params: { plan: plan.displayName },
              dedupeKey: `trial-ended:${sub.id}`,
            }
          : {
              type: 'warning',
              title: `Essai ${plan.displayName} bientôt terminé`,
              message: `Votre essai du plan ${plan.displayName} se termine dans ${days} jour${days > 1 ? 's' : ''} (${sub.expiresAt!.toISOString().slice(0, 10)}).`,
              code: 'trial.ending',
              params: { plan: plan.displayName, days, until: sub.expiresAt!.toISOString().slice(0, 10) },
              dedupeKey: `trial-ending:${sub.id}`,
            },
      );
    }
  } catch {
    /* reminders are best effort */
  }
}

export interface OwnedPlan {
  plan: PlanRow;
  /** How it is held: a subscription (or the implicit free plan) and/or an active key on it. */
  via: 'subscription' | 'key';
}

/**
 * Plans the user may use now: free, plans of live subscriptions (active, or trial not expired), and plans of the
 * user's active, unexpired keys (spec-1 section 4).
 */
export async function ownedPlans(db: Db, userId: string, now = new Date()): Promise<OwnedPlan[]> {
  const [subs, keyPlans, free] = await Promise.all([
    userRows(db, userId),
    db
      .selectDistinct({ plan: plans })
      .from(apiKeys)
      .innerJoin(plans, eq(plans.id, apiKeys.planId))
      .where(
        and(
          eq(apiKeys.userId, userId),
          eq(apiKeys.isActive, true),
          isNull(apiKeys.deletedAt),
          eq(apiKeys.keyType, 'standard'),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      ),
    findPlan(db, 'free'),
  ]);
  const out = new Map<string, OwnedPlan>();
  if (free) out.set(free.name, { plan: free, via: 'subscription' });
  for (const s of subs)
    if (isLive(effectiveStatus(s.sub, now))) out.set(s.plan.name, { plan: s.plan, via: 'subscription' });
  // A key on a plan whose trial ended does not make the plan owned: its calls answer 402.
  const expired = new Set(subs.filter((s) => !isLive(effectiveStatus(s.sub, now))).map((s) => s.plan.name));
  for (const k of keyPlans)
    if (!out.has(k.plan.name) && !expired.has(k.plan.name)) out.set(k.plan.name, { plan: k.plan, via: 'key' });
  return [...out.values()];
}

/** The primary plan: activeplan if set, else the most expensive owned plan, else free. */
export function primaryPlanName(owned: OwnedPlan[], activePlan: string | null): string {
  if (activePlan) return activePlan;
  const best = [...owned].sort(
    (a, b) => Number(b.plan.price) - Number(a.plan.price) || b.plan.sortOrder - a.plan.sortOrder,
  )[0];
  return best?.plan.name ?? 'free';
}

export interface UserPlanSummary {
  plan: string;
  plans: Array<{
    planName: string;
    planDisplayName: string;
    isActive: boolean;
    status: string;
    expiresAt: string | null;
  }>;
  activeplan: string | null;
}

/** plan / plans / activeplan of the user DTO (spec-1 section 4). */
export async function userPlanSummary(
  db: Db,
  user: { id: string; activePlan: string | null },
): Promise<UserPlanSummary> {
  const now = new Date();
  const [subs, owned] = await Promise.all([listSubscriptionsQuiet(db, user.id, now), ownedPlans(db, user.id, now)]);
  return {
    plan: primaryPlanName(owned, user.activePlan),
    plans: subs.map((s) => ({
      planName: s.planName,
      planDisplayName: s.planDisplayName,
      isActive: s.isActive,
      status: s.status,
      expiresAt: s.expiresAt,
    })),
    activeplan: user.activePlan,
  };
}

async function listSubscriptionsQuiet(db: Db, userId: string, now: Date): Promise<TSubscription[]> {
  const [rows, free] = await Promise.all([userRows(db, userId), findPlan(db, 'free')]);
  const out = rows.map((r) => toDto(r.sub, r.plan, now));
  if (free && !rows.some((r) => r.plan.name === 'free')) out.unshift(toDto(null, free, now));
  return out;
}

/** Sum of the prices of live paid subscriptions (not trials): the admin overview's monthly revenue. */
export async function activeRevenue(
  db: Db,
  now = new Date(),
): Promise<{ monthly: number; count: number; currency: string }> {
  const [row] = await db
    .select({
      monthly: sql<string>`coalesce(sum(case ${plans.billingPeriod} when 'yearly' then ${plans.price} / 12 when 'one-time' then 0 else ${plans.price} end), 0)`,
      count: sql<number>`count(*)::int`,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptions.status, 'active'),
        sql`${plans.price} > 0`,
        or(isNull(subscriptions.expiresAt), gt(subscriptions.expiresAt, now)),
      ),
    );
  return { monthly: Math.round(Number(row?.monthly ?? 0) * 100) / 100, count: row?.count ?? 0, currency: 'USD' };
}
