import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { jobs, webhookDeliveries, type JobRow, type WebhookDeliveryRow } from '../../data/schema/index';

/** How long a claimed delivery is held by its node before another may try it (its node died mid-attempt). */
const LEASE_MS = 60_000;

/** Takes the next due webhook: its attempt counted, its due time pushed past the lease. */
export async function claimDueWebhook(db: Db, now = new Date()): Promise<JobRow | null> {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.webhookStatus, 'pending'), lte(jobs.webhookNextAt, now)))
      .orderBy(asc(jobs.webhookNextAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return null;
    const [row] = await tx
      .update(jobs)
      .set({ webhookAttempts: sql`${jobs.webhookAttempts} + 1`, webhookNextAt: new Date(now.getTime() + LEASE_MS) })
      .where(eq(jobs.id, next.id))
      .returning();
    return row ?? null;
  });
}

export async function recordDelivery(db: Db, d: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await db.insert(webhookDeliveries).values(d);
}

/** After an attempt: delivered, due again at `retryAt`, or failed for good. */
export async function settleWebhook(
  db: Db,
  id: string,
  outcome: { status: 'delivered' | 'failed' } | { retryAt: Date },
): Promise<void> {
  await db
    .update(jobs)
    .set(
      'retryAt' in outcome
        ? { webhookNextAt: outcome.retryAt }
        : { webhookStatus: outcome.status, webhookNextAt: null },
    )
    .where(and(eq(jobs.id, id), eq(jobs.webhookStatus, 'pending')));
}

export function deliveriesOf(db: Db, jobIds: string[]): Promise<WebhookDeliveryRow[]> {
  if (!jobIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.jobId, jobIds))
    .orderBy(desc(webhookDeliveries.createdAt));
}
