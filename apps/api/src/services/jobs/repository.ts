import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { TJobStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import {
  jobs,
  type GotenbergWebhookFormat,
  type JobInput,
  type JobLimitReceipt,
  type JobResult,
  type JobRow,
  type JobStep,
} from '../../data/schema/index';

/** The jobs table: every change of state is conditional on the state it leaves, so two nodes never both win. */

/** Set with every end of a job: its webhook, if it has a callback, becomes due now. */
const webhookDue = () => ({
  webhookStatus: sql<'pending' | null>`CASE WHEN ${jobs.callbackUrl} IS NULL THEN NULL ELSE 'pending' END`,
  webhookNextAt: new Date(),
  webhookAttempts: 0,
});

export interface NewJob {
  id: string;
  userId: string;
  keyId: string;
  endpoint: string;
  endpointGroup: string;
  route: string;
  fields: Record<string, string>;
  inputs: JobInput[];
  requestHeaders: Record<string, string>;
  bytesIn: number;
  callbackUrl: string | null;
  /** Null: DocFlow's JSON event to callbackUrl. */
  webhookFormat?: GotenbergWebhookFormat | null;
  sync?: boolean;
  limitReceipts?: JobLimitReceipt[];
}

/** PostgreSQL text and jsonb cannot hold U+0000; file names, tool messages and zip entry names can. */
const pgText = (s: string): string => s.replaceAll('\u0000', '\uFFFD');
const pgSteps = (steps: JobStep[]): JobStep[] =>
  steps.map((st) => ({ ...st, name: pgText(st.name), ...(st.message ? { message: pgText(st.message) } : {}) }));

export async function insertJob(db: Db, job: NewJob): Promise<JobRow> {
  const clean: NewJob = {
    ...job,
    fields: Object.fromEntries(Object.entries(job.fields).map(([k, v]) => [pgText(k), pgText(v)])),
    inputs: job.inputs.map((i) => ({ ...i, fileName: pgText(i.fileName) })),
  };
  const [row] = await db.insert(jobs).values(clean).returning();
  return row!;
}

export async function findJob(db: Db, id: string): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row ?? null;
}

export async function listJobs(
  db: Db,
  userId: string,
  opts: { status?: TJobStatus; limit: number; before?: Date; keyId?: string | null },
): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.userId, userId),
        eq(jobs.sync, false),
        opts.keyId ? eq(jobs.keyId, opts.keyId) : undefined,
        opts.status ? eq(jobs.status, opts.status) : undefined,
        opts.before ? lt(jobs.createdAt, opts.before) : undefined,
      ),
    )
    .orderBy(desc(jobs.createdAt))
    .limit(opts.limit);
}

/** Takes the oldest queued job for a run (or a given one), or null when there is none. */
export async function claimJob(
  db: Db,
  worker: string,
  id?: string,
  opts: { takeOver?: boolean } = {},
): Promise<JobRow | null> {
  // takeOver: the queue (BullMQ) hands this node a job whose last run died: running, but not anyone's any more.
  const states: TJobStatus[] = opts.takeOver ? ['queued', 'running'] : ['queued'];
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.status, states), id ? eq(jobs.id, id) : undefined))
      .orderBy(asc(jobs.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return null;
    const [row] = await tx
      .update(jobs)
      .set({
        status: 'running',
        worker,
        startedAt: new Date(),
        attempts: sql`${jobs.attempts} + 1`,
        progress: 0,
        steps: [],
        updatedAt: new Date(),
      })
      .where(eq(jobs.id, next.id))
      .returning();
    return row ?? null;
  });
}

/** A running job's progress; also its heartbeat (updated_at), by which a lost run is found. */
export async function reportProgress(db: Db, id: string, progress: number, steps?: JobStep[]): Promise<void> {
  await db
    .update(jobs)
    .set({ progress, ...(steps ? { steps: pgSteps(steps) } : {}), updatedAt: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')));
}

export async function heartbeat(db: Db, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const alive = await db
    .update(jobs)
    .set({ updatedAt: new Date() })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return alive.map((r) => r.id);
}

export async function finishJob(
  db: Db,
  id: string,
  end: {
    status: 'succeeded' | 'failed';
    result: JobResult;
    errorCode?: string | null;
    errorMessage?: string | null;
    steps?: JobStep[];
    expiresAt: Date;
  },
): Promise<boolean> {
  const done = await db
    .update(jobs)
    .set({
      status: end.status,
      result: { ...end.result, fileName: end.result.fileName == null ? null : pgText(end.result.fileName) },
      errorCode: end.errorCode ?? null,
      errorMessage: end.errorMessage == null ? null : pgText(end.errorMessage),
      ...(end.steps ? { steps: pgSteps(end.steps) } : {}),
      progress: end.status === 'succeeded' ? 100 : sql`${jobs.progress}`,
      finishedAt: new Date(),
      expiresAt: end.expiresAt,
      updatedAt: new Date(),
      ...webhookDue(),
    })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return done.length > 0;
}

/** Fails a job that cannot run (no result): from queued or running. */
export async function failJob(db: Db, id: string, code: string, message: string, expiresAt: Date): Promise<boolean> {
  const done = await db
    .update(jobs)
    .set({
      status: 'failed',
      errorCode: code,
      errorMessage: pgText(message),
      finishedAt: new Date(),
      expiresAt,
      updatedAt: new Date(),
      ...webhookDue(),
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
    .returning({ id: jobs.id });
  return done.length > 0;
}

/** Cancels a queued or running job; the status it had, or null when it had already ended. */
export async function cancelJob(db: Db, id: string, expiresAt: Date): Promise<TJobStatus | null> {
  const [before] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id));
  if (!before || (before.status !== 'queued' && before.status !== 'running')) return null;
  const done = await db
    .update(jobs)
    .set({ status: 'cancelled', finishedAt: new Date(), expiresAt, updatedAt: new Date(), ...webhookDue() })
    .where(and(eq(jobs.id, id), eq(jobs.status, before.status)))
    .returning({ id: jobs.id });
  return done.length ? before.status : null;
}

/**
 * Cancels a job the gate refused as it started (its key or account may no longer call): it ran nothing, so nobody is
 * told of it (no webhook), and why is kept for its owner's dashboard.
 */
export async function cancelRefusedJob(
  db: Db,
  id: string,
  refusal: { code: string; message: string },
  expiresAt: Date,
): Promise<boolean> {
  const done = await db
    .update(jobs)
    .set({
      status: 'cancelled',
      errorCode: refusal.code,
      errorMessage: pgText(refusal.message),
      finishedAt: new Date(),
      expiresAt,
      updatedAt: new Date(),
      webhookStatus: null,
      webhookNextAt: null,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
    .returning({ id: jobs.id });
  return done.length > 0;
}

/** Running jobs whose heartbeat is older than `since` (their node died or hangs): back to the queue, or failed. */
export async function recoverStalled(
  db: Db,
  since: Date,
  maxAttempts: number,
  expiresAt: Date,
): Promise<{ requeued: string[]; failed: string[] }> {
  const stalled = await db
    .select({ id: jobs.id, attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.status, 'running'), lt(jobs.updatedAt, since)));
  const requeued: string[] = [];
  const failed: string[] = [];
  for (const j of stalled) {
    const retry = j.attempts < maxAttempts;
    const done = await db
      .update(jobs)
      .set(
        retry
          ? { status: 'queued', startedAt: null, progress: 0, steps: [], updatedAt: new Date() }
          : {
              status: 'failed',
              errorCode: 'JOB_INTERRUPTED',
              errorMessage: `The job was interrupted ${j.attempts} times (server restarted or its worker was lost) and is not retried again`,
              finishedAt: new Date(),
              expiresAt,
              updatedAt: new Date(),
              ...webhookDue(),
            },
      )
      .where(and(eq(jobs.id, j.id), eq(jobs.status, 'running'), lt(jobs.updatedAt, since)))
      .returning({ id: jobs.id });
    if (done.length) (retry ? requeued : failed).push(j.id);
  }
  return { requeued, failed };
}

/** Ended jobs past their expiry, oldest first (their files are deleted before their rows). */
export async function expiredJobs(db: Db, now: Date, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(lt(jobs.expiresAt, now))
    .orderBy(asc(jobs.expiresAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function deleteJob(db: Db, id: string): Promise<void> {
  await db.delete(jobs).where(eq(jobs.id, id));
}

export function setExpiry(db: Db, id: string, expiresAt: Date) {
  return db.update(jobs).set({ expiresAt }).where(eq(jobs.id, id));
}

/** Jobs a stopping node could not finish, back to the queue for another run (not counted as an attempt). */
export async function handBack(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(jobs)
    .set({
      status: 'queued',
      startedAt: null,
      progress: 0,
      steps: [],
      attempts: sql`${jobs.attempts} - 1`,
      updatedAt: new Date(),
    })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')));
}

/** Queued jobs admitted before `before` (a fleet's reconciliation queues them again if the queue lost them). */
export async function queuedBefore(db: Db, before: Date, limit = 500): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), lt(jobs.createdAt, before)))
    .orderBy(asc(jobs.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}
