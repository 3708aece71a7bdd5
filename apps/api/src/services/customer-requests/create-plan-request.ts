import { and, eq } from 'drizzle-orm';
import type { TPlanRequest } from '@docflow/contracts';
import { planRequests, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import { findPlan } from '../plans/index';
import type { RequestsContext } from './context';
import { notifyRequestHandlers } from './notify-admins';
import { forCustomer, onePlanRequest } from './plan-request-rows';

/**
 * Ask for a paid plan (Upgrade or Contact Sales without a payment provider). One pending request per plan: asking
 * again while one waits answers 409 with the waiting request's id.
 */
export async function createPlanRequest(
  ctx: RequestsContext,
  userId: string,
  input: { planName: string; billingPeriod: 'monthly' | 'yearly'; message?: string | undefined },
  ip: string | null = null,
): Promise<TPlanRequest> {
  const plan = await findPlan(ctx.db, input.planName);
  if (!plan || !plan.isActive || !plan.isPublic) throw new AppError('NOT_FOUND', `Plan "${input.planName}" not found`);
  if (Number(plan.price) === 0)
    throw new AppError(
      'VALIDATION_ERROR',
      `planName: the ${plan.displayName} plan is free; start it from the plans page`,
    );
  const [row] = await ctx.db
    .insert(planRequests)
    .values({ userId, planId: plan.id, billingPeriod: input.billingPeriod, message: input.message || null })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const [waiting] = await ctx.db
      .select({ id: planRequests.id })
      .from(planRequests)
      .where(
        and(eq(planRequests.userId, userId), eq(planRequests.planId, plan.id), eq(planRequests.status, 'pending')),
      );
    throw new AppError('CONFLICT', `A request for the ${plan.displayName} plan is already waiting for an answer`, {
      details: { requestId: waiting?.id ?? null },
    });
  }
  const [who] = await ctx.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  await recordAudit(ctx.db, {
    userId,
    action: 'plan_request.create',
    ip,
    target: { type: 'plan_request', id: row.id, label: plan.name },
    details: { plan: plan.name, billingPeriod: input.billingPeriod },
  });
  await notifyRequestHandlers(ctx.db, 'plan-request.created', {
    user: who ? `${who.name} <${who.email}>` : userId,
    plan: plan.displayName,
    period: input.billingPeriod,
  });
  return forCustomer((await onePlanRequest(ctx.db, row.id))!);
}
