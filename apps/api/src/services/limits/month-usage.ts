import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { apiKeys, usageDaily } from '../../data/schema/index';
import { parseLimitSubject } from './subject';

const dayStr = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Calls counted against a limit subject's month since `monthStart`, from the daily rollups: every standard key of the
 * user on the plan, deleted ones included (their calls were sold too), or the one custom key. Seeds a month counter
 * whenever one is created (restart, Redis failover, eviction).
 */
export async function monthUsedBySubject(db: Db, subjectId: string, monthStart: Date): Promise<number> {
  const subject = parseLimitSubject(subjectId);
  if (!subject) return 0;
  const keys =
    subject.kind === 'key'
      ? [subject.keyId]
      : db
          .select({ id: apiKeys.id })
          .from(apiKeys)
          .where(
            and(
              eq(apiKeys.userId, subject.userId),
              eq(apiKeys.planId, subject.planId),
              eq(apiKeys.keyType, 'standard'),
            ),
          );
  const [r] = await db
    .select({ n: sql<number>`coalesce(sum(${usageDaily.counted}), 0)::int` })
    .from(usageDaily)
    .where(
      and(
        subject.kind === 'subscription' ? eq(usageDaily.userId, subject.userId) : undefined,
        inArray(usageDaily.keyId, keys),
        gte(usageDaily.day, dayStr(monthStart)),
      ),
    );
  return r?.n ?? 0;
}
