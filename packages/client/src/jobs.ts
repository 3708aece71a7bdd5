import type { components } from './schema.js';

/** A job as `GET /api/v1/jobs/{id}` gives it (generated from the OpenAPI document). */
export type TJob = components['schemas']['Job'];
export type TJobStatus = TJob['status'];

/** What `async=true` on a processing route answers, with 202 and a Location header. */
export interface TJobAccepted {
  jobId: string;
  status: TJobStatus;
  location: string;
}

export const terminalStatuses: readonly TJobStatus[] = ['succeeded', 'failed', 'cancelled'];

export interface WaitForJobOptions {
  /** Between two looks at the job (default 1 000 ms). */
  intervalMs?: number;
  /** Give up after this long (default 10 minutes): a {@link JobWaitError} with code `JOB_WAIT_TIMEOUT`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Told each time the job is read (progress bars). */
  onProgress?: (job: TJob) => void;
}

/** A job that ended without a result (failed, cancelled), or a wait that timed out. */
export class JobWaitError extends Error {
  readonly code: string;
  /** The job as last read. */
  readonly job?: TJob;

  constructor(code: string, message: string, job?: TJob) {
    super(message);
    this.name = 'JobWaitError';
    this.code = code;
    this.job = job;
  }
}
