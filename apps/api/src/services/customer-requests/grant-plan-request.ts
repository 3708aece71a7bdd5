import { and, eq } from 'drizzle-orm';
import type { TAdminPlanRequest, TGrantPlanRequest, TSubscription } from '@docflow/contracts';
import { planRequests, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import { assertMayAct } from '../admin/role-rules';
import { findPlan } from '../plans/index';
import { renewSubscription } from '../subscriptions/index';
import type { DecisionContext } from './context';
import { onePlanRequest } from './plan-request-rows';
import { tellCustomer } from './tell-customer';

/** A pending request, its owner's role, or the reason it cannot be decided (404, 409, the role rules' 403). */
export async function decidable(ctx: DecisionContext, id: string) {
  const request = await onePlanRequest(ctx.db, id);
  if (!request) throw new AppError('NOT_FOUND', 'Plan request not found');
  const [owner] = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, request.user.id));
  // The rules of plan changes through the admin API: nobody grants themselves a plan, nor acts above their rank.
  assertMayAct(ctx.actor, { id: request.user.id, role: owner?.role ?? 'user' }, 'change-plan');
  if (request.status !== 'pending')
    throw new AppError('CONFLICT', `This request is ${request.status} already: only a pending one can be decided`);
  return request;
}

/**
 * Grant a request: the user holds the plan (the one asked for, or the one the admin chose) for `days` days through the
 * subscriptions service, as an admin renewal; their cached keys are forgotten so the plan's limits apply to the next
 * call. Audited, and told to the user (bell and mail).
 */
export async function grantPlanRequest(
  ctx: DecisionContext,
  id: string,
  input: TGrantPlanRequest,
): Promise<{ request: TAdminPlanRequest; subscription: TSubscription }> {
  const request = await decidable(ctx, id);
  const planName = input.planName ?? request.planName;
  const plan = await findPlan(ctx.db, planName);
  if (!plan || !plan.isActive) throw new AppError('NOT_FOUND', `Plan "${planName}" not found`);
  const now = new Date();
  // Claim the request first: of two admins granting at once, one wins and the other gets 409.
  const [claimed] = await ctx.db
    .update(planRequests)
    .set({
      status: 'granted',
      grantedPlanId: plan.id,
      decidedBy: ctx.actor.id,
      decidedAt: now,
      decisionNote: input.note || null,
      updatedAt: now,
    })
    .where(and(eq(planRequests.id, id), eq(planRequests.status, 'pending')))
    .returning({ id: planRequests.id });
  if (!claimed) throw new AppError('CONFLICT', 'This request was decided meanwhile');
  let subscription: TSubscription;
  try {
    subscription = await renewSubscription(ctx.db, request.user.id, plan.name, input.days, now, { quiet: true });
  } catch (err) {
    await ctx.db
      .update(planRequests)
      .set({ status: 'pending', grantedPlanId: null, decidedBy: null, decidedAt: null, decisionNote: null })
      .where(eq(planRequests.id, id));
    throw err;
  }
  const until = subscription.expiresAt ? new Date(subscription.expiresAt) : null;
  await ctx.db.update(planRequests).set({ grantedUntil: until }).where(eq(planRequests.id, id));
  ctx.evictUser(request.user.id);
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.plan_request.grant',
    ip: ctx.ip,
    target: { type: 'plan_request', id, label: request.user.email },
    details: {
      user: request.user.id,
      requested: request.planName,
      granted: plan.name,
      days: input.days,
      until: subscription.expiresAt,
      ...(input.note ? { note: input.note } : {}),
    },
  });
  await tellCustomer(
    ctx,
    request.user.id,
    'plan-request.granted',
    { plan: plan.displayName, until: subscription.expiresAt?.slice(0, 10) ?? '—' },
    { type: 'success', path: '/plans', extra: input.note },
  );
  return { request: (await onePlanRequest(ctx.db, id))!, subscription };
}
