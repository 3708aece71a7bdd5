import { and, eq } from 'drizzle-orm';
import type { TAdminPlanRequest } from '@docflow/contracts';
import { planRequests } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import type { DecisionContext } from './context';
import { decidable } from './grant-plan-request';
import { onePlanRequest } from './plan-request-rows';
import { tellCustomer } from './tell-customer';

/** Decline a request with a note the customer reads (bell and mail). Audited. */
export async function declinePlanRequest(ctx: DecisionContext, id: string, note: string): Promise<TAdminPlanRequest> {
  const request = await decidable(ctx, id);
  const now = new Date();
  const [claimed] = await ctx.db
    .update(planRequests)
    .set({ status: 'declined', decidedBy: ctx.actor.id, decidedAt: now, decisionNote: note, updatedAt: now })
    .where(and(eq(planRequests.id, id), eq(planRequests.status, 'pending')))
    .returning({ id: planRequests.id });
  if (!claimed) throw new AppError('CONFLICT', 'This request was decided meanwhile');
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.plan_request.decline',
    ip: ctx.ip,
    target: { type: 'plan_request', id, label: request.user.email },
    details: { user: request.user.id, requested: request.planName, note },
  });
  await tellCustomer(
    ctx,
    request.user.id,
    'plan-request.declined',
    { plan: request.planDisplayName, note },
    { type: 'warning', path: '/plans' },
  );
  return (await onePlanRequest(ctx.db, id))!;
}
