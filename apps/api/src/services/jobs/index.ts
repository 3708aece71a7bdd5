import type { TJobStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import type { JobRow } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import * as repo from './repository';
import type { JobRunner } from './runner';
import type { JobStore } from './store';

/**
 * Who reads jobs. A job holds a customer's documents, so it is seen by the key that made it and by its owner: their
 * dashboard session and the keys they made themselves. A key someone else made for them (an admin's custom key,
 * whose secret that admin saw) is not the owner's own credential: it sees only the jobs it made (`onlyKeyId`).
 */
export interface JobReader {
  userId: string;
  onlyKeyId: string | null;
}

const visibleTo = (reader: JobReader, row: JobRow) =>
  row.userId === reader.userId && (reader.onlyKeyId === null || row.keyId === reader.onlyKeyId);

/** A job this reader may see; any other job does not exist for them (404, never 403). */
export async function ownJob(db: Db, reader: JobReader, id: string): Promise<JobRow> {
  const row = await repo.findJob(db, id);
  if (!row || !visibleTo(reader, row)) throw new AppError('JOB_NOT_FOUND', `No job ${id} among your jobs`);
  return row;
}

export function listOwnJobs(db: Db, reader: JobReader, q: { status?: TJobStatus; limit: number; before?: string }) {
  const before = q.before ? new Date(q.before) : undefined;
  if (before && Number.isNaN(before.getTime())) throw new AppError('INVALID_INPUT', 'before: not an ISO date');
  return repo.listJobs(db, reader.userId, { status: q.status, limit: q.limit, before, keyId: reader.onlyKeyId });
}

/**
 * DELETE /jobs/{id}: a queued or running job is cancelled (a run on this node is stopped at once, its tools killed;
 * on another node at its next heartbeat) and kept, cancelled, until it expires; an ended job is deleted with its
 * files. Answers what happened.
 */
export async function cancelOrRemove(
  deps: { db: Db; store: JobStore; runner: JobRunner; ttlMs: number },
  job: JobRow,
): Promise<'cancelled' | 'deleted'> {
  const was = await repo.cancelJob(deps.db, job.id, new Date(Date.now() + deps.ttlMs));
  if (was) {
    if (was === 'running') deps.runner.cancel(job.id);
    return 'cancelled';
  }
  await deps.store.remove(job.id);
  await repo.deleteJob(deps.db, job.id);
  return 'deleted';
}
