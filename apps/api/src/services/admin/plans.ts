import { asc, eq } from 'drizzle-orm';
import type { TAdminUpdatePlanRequest } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { plans } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import { findPlan, toPlanDto } from '../plans/index';
import type { AdminContext } from './context';

/** Every plan, private and inactive ones included. */
export async function listAllPlans(db: Db) {
  const rows = await db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.price));
  return rows.map(toPlanDto);
}

/**
 * Change a plan. The plans page and the landing page read plans from the database on each call, and the key cache
 * is emptied on this node, so enforcement follows at once here (within a second on other nodes).
 */
export async function updatePlan(ctx: AdminContext, name: string, patch: TAdminUpdatePlanRequest) {
  const current = await findPlan(ctx.db, name);
  if (!current) throw new AppError('NOT_FOUND', `Plan "${name}" not found`);
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  if (next.maxRequestsPerMinute > next.maxRequestsPerHour || next.maxRequestsPerHour > next.maxRequestsPerMonth)
    throw new AppError('VALIDATION_ERROR', 'Limits must grow: per minute ≤ per hour ≤ per month');
  if (name === 'free' && Number(next.price) !== 0)
    throw new AppError('VALIDATION_ERROR', 'The free plan stays free: every account holds it without a subscription');
  const [row] = await ctx.db
    .update(plans)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(plans.id, current.id))
    .returning();
  ctx.keys.clear();
  const changes = Object.fromEntries(
    Object.entries(patch)
      .filter(
        ([k, v]) => v !== undefined && JSON.stringify((current as Record<string, unknown>)[k]) !== JSON.stringify(v),
      )
      .map(([k, v]) => [k, { from: (current as Record<string, unknown>)[k], to: v }]),
  );
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.plan.update',
    ip: ctx.ip,
    target: { type: 'plan', id: current.id, label: current.name },
    details: changes,
  });
  return toPlanDto(row!);
}
