import { and, asc, count, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { jobs, users, webhookResendLog, type JobRow } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';

const HOUR = 3_600_000;

export interface ResendLimits {
  perJobPerHour: number;
  perAccountPerHour: number;
}

/**
 * "Resend": the ended job's webhook is due again now, with a fresh set of attempts. Each resend is work and traffic
 * (a Gotenberg-style delivery posts the whole result again), so it is limited over a rolling hour, per job and per
 * account (429 WEBHOOK_RESEND_LIMITED with Retry-After: when the oldest resend of the window leaves it), and counted
 * on the job (`webhook.resends`). The user's row is locked meanwhile, so concurrent resends cannot both take the last
 * one. Answers false when the job has not ended (its webhook is sent when it does).
 */
export async function resendWebhook(
  db: Db,
  job: Pick<JobRow, 'id' | 'userId'>,
  limits: ResendLimits,
  now = new Date(),
): Promise<boolean> {
  const since = new Date(now.getTime() - HOUR);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${users} where ${users.id} = ${job.userId} for update`);
    await tx
      .delete(webhookResendLog)
      .where(and(eq(webhookResendLog.userId, job.userId), lt(webhookResendLog.createdAt, since)));
    const inWindow = (scope: 'job' | 'account') =>
      tx
        .select({ at: webhookResendLog.createdAt })
        .from(webhookResendLog)
        .where(
          and(
            scope === 'job' ? eq(webhookResendLog.jobId, job.id) : eq(webhookResendLog.userId, job.userId),
            gt(webhookResendLog.createdAt, since),
          ),
        )
        .orderBy(asc(webhookResendLog.createdAt));
    for (const [scope, limit] of [
      ['job', limits.perJobPerHour],
      ['account', limits.perAccountPerHour],
    ] as const) {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(inWindow(scope).as('w'));
      if (n < limit) continue;
      const [oldest] = await inWindow(scope)
        .offset(n - limit)
        .limit(1);
      const retryAfter = Math.max(
        1,
        Math.ceil(((oldest?.at.getTime() ?? now.getTime()) + HOUR - now.getTime()) / 1000),
      );
      throw new AppError(
        'WEBHOOK_RESEND_LIMITED',
        scope === 'job'
          ? `The webhook of job ${job.id} was resent ${limit} times in the last hour; retry in ${Math.ceil(retryAfter / 60)} min`
          : `Your account resent ${limit} webhooks in the last hour; retry in ${Math.ceil(retryAfter / 60)} min`,
        { headers: { 'Retry-After': retryAfter }, details: { scope, limit, retryAfter } },
      );
    }
    const done = await tx
      .update(jobs)
      .set({
        webhookStatus: 'pending',
        webhookNextAt: now,
        webhookAttempts: 0,
        webhookResends: sql`${jobs.webhookResends} + 1`,
      })
      .where(and(eq(jobs.id, job.id), inArray(jobs.status, ['succeeded', 'failed', 'cancelled'])))
      .returning({ id: jobs.id });
    if (done.length === 0) return false;
    await tx.insert(webhookResendLog).values({ jobId: job.id, userId: job.userId, createdAt: now });
    return true;
  });
}
