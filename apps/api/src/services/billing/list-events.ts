import { and, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { TAdminBillingEvent, TBillingEventStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { billingEvents } from '../../data/schema/index';

export interface BillingEventsQuery {
  page: number;
  limit: number;
  type?: string;
  status?: TBillingEventStatus;
}

/** The row conditions of each status (see ZBillingEventStatus). */
const statusWhere: Record<TBillingEventStatus, SQL | undefined> = {
  processed: isNotNull(billingEvents.processedAt),
  failed: and(isNull(billingEvents.processedAt), isNotNull(billingEvents.error)),
  pending: and(isNull(billingEvents.processedAt), isNull(billingEvents.error)),
};

type Row = Pick<
  typeof billingEvents.$inferSelect,
  'id' | 'type' | 'stripeCreated' | 'receivedAt' | 'processedAt' | 'outcome' | 'error' | 'failedAt'
>;

const statusOf = (r: Row): TBillingEventStatus => (r.processedAt ? 'processed' : r.error ? 'failed' : 'pending');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The Stripe events received, newest first, for the admins (GET /admin/billing/events); payloads stay in. */
export async function listBillingEvents(db: Db, q: BillingEventsQuery) {
  const where = and(q.type ? eq(billingEvents.type, q.type) : undefined, q.status ? statusWhere[q.status] : undefined);
  const [rows, [{ n } = { n: 0 }], types] = await Promise.all([
    db
      .select({
        id: billingEvents.id,
        type: billingEvents.type,
        stripeCreated: billingEvents.stripeCreated,
        receivedAt: billingEvents.receivedAt,
        processedAt: billingEvents.processedAt,
        outcome: billingEvents.outcome,
        error: billingEvents.error,
        failedAt: billingEvents.failedAt,
      })
      .from(billingEvents)
      .where(where)
      .orderBy(desc(billingEvents.receivedAt), desc(billingEvents.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(billingEvents).where(where),
    db.selectDistinct({ type: billingEvents.type }).from(billingEvents).orderBy(billingEvents.type),
  ]);
  const events: TAdminBillingEvent[] = rows.map((r) => ({
    id: r.id,
    type: r.type,
    created: r.stripeCreated.toISOString(),
    received: r.receivedAt.toISOString(),
    status: statusOf(r),
    processedAt: iso(r.processedAt),
    outcome: r.outcome,
    error: r.error,
    failedAt: iso(r.failedAt),
  }));
  return {
    events,
    pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.max(1, Math.ceil(n / q.limit)) },
    types: types.map((t) => t.type),
  };
}
