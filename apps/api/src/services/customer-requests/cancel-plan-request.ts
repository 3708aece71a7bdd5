import { and, eq } from 'drizzle-orm';
import type { TPlanRequest } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { planRequests } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import { forCustomer, onePlanRequest } from './plan-request-rows';

/** The customer withdraws a request still waiting. Another user's request is 404, as if it did not exist. */
export async function cancelPlanRequest(
  db: Db,
  userId: string,
  id: string,
  ip: string | null = null,
): Promise<TPlanRequest> {
  const current = await onePlanRequest(db, id);
  if (!current || current.user.id !== userId) throw new AppError('NOT_FOUND', 'Plan request not found');
  const [row] = await db
    .update(planRequests)
    .set({ status: 'cancelled', decidedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(planRequests.id, id), eq(planRequests.status, 'pending')))
    .returning({ id: planRequests.id });
  if (!row)
    throw new AppError('CONFLICT', `This request is ${current.status} already: only a pending one can be cancelled`);
  await recordAudit(db, {
    userId,
    action: 'plan_request.cancel',
    ip,
    target: { type: 'plan_request', id, label: current.planName },
  });
  return forCustomer((await onePlanRequest(db, id))!);
}
