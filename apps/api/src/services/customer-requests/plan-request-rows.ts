import { desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TAdminPlanRequest, TPlanRequest } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { planRequests, plans, users } from '../../data/schema/index';

const granted = alias(plans, 'granted_plan');
const owner = alias(users, 'request_owner');
const decider = alias(users, 'request_decider');

/** Plan requests with the plans asked for and granted, their owner and who decided, newest first. */
export async function selectPlanRequests(db: Db, where: SQL | undefined, limit = 200): Promise<TAdminPlanRequest[]> {
  const rows = await db
    .select({ r: planRequests, plan: plans, granted, owner, decider })
    .from(planRequests)
    .innerJoin(plans, eq(plans.id, planRequests.planId))
    .innerJoin(owner, eq(owner.id, planRequests.userId))
    .leftJoin(granted, eq(granted.id, planRequests.grantedPlanId))
    .leftJoin(decider, eq(decider.id, planRequests.decidedBy))
    .where(where)
    .orderBy(desc(planRequests.createdAt), desc(planRequests.id))
    .limit(limit);
  return rows.map(({ r, plan, granted: g, owner: o, decider: d }) => ({
    id: r.id,
    planName: plan.name,
    planDisplayName: plan.displayName,
    billingPeriod: r.billingPeriod,
    message: r.message,
    status: r.status,
    grantedPlanName: g?.name ?? null,
    grantedPlanDisplayName: g?.displayName ?? null,
    grantedUntil: r.grantedUntil?.toISOString() ?? null,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionNote: r.decisionNote,
    createdAt: r.createdAt.toISOString(),
    user: { id: o.id, email: o.email, name: o.name },
    decidedBy: d
      ? { id: d.id, email: d.email, name: d.name }
      : r.decidedBy
        ? { id: r.decidedBy, email: null, name: null }
        : null,
  }));
}

/** What the customer sees of their request: not who decided. */
export function forCustomer(r: TAdminPlanRequest): TPlanRequest {
  const { user: _user, decidedBy: _decidedBy, ...own } = r;
  return own;
}

export async function onePlanRequest(db: Db, id: string): Promise<TAdminPlanRequest | undefined> {
  return (await selectPlanRequests(db, eq(planRequests.id, id), 1))[0];
}
