import { eq } from 'drizzle-orm';
import type { TAdminPlanRequest, TPlanRequest, TPlanRequestStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { planRequests } from '../../data/schema/index';
import { forCustomer, selectPlanRequests } from './plan-request-rows';

/** The user's own requests, newest first (never another user's). */
export async function listOwnPlanRequests(db: Db, userId: string): Promise<TPlanRequest[]> {
  return (await selectPlanRequests(db, eq(planRequests.userId, userId), 50)).map(forCustomer);
}

/** Every customer's requests for the admin page, optionally of one status. */
export async function listPlanRequests(db: Db, status?: TPlanRequestStatus): Promise<TAdminPlanRequest[]> {
  return selectPlanRequests(db, status ? eq(planRequests.status, status) : undefined);
}
