import type { components } from './schema';

/*
 * The jobs routes (GET /api/v1/jobs/{id}, GET /api/v1/jobs/{id}/result) are not in the OpenAPI document yet: until
 * they land, their shape is written here by hand, in the form openapi-typescript gives `paths`. When they are in the
 * document, `npm run generate -w packages/client` adds them to src/schema.d.ts: delete `JobsPaths` and point `TJob`
 * at the generated schema.
 */

export type TJobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TJob {
  id: string;
  /** The processing route the job runs, e.g. /conversion/word-to-pdf. */
  endpoint: string;
  status: TJobStatus;
  /** 0 to 100. */
  progress: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  result: { contentType: string; size: number; fileName: string } | null;
}

/** What `async=true` on a processing route answers, with 202 and a Location header. */
export interface TJobAccepted {
  jobId: string;
  status: TJobStatus;
  location: string;
}

type ErrorAnswer = {
  headers: { [name: string]: unknown };
  content: { 'application/json': components['schemas']['ErrorResponse'] };
};
type JobParameters = { query?: never; header?: never; path: { id: string }; cookie?: never };

export interface JobsPaths {
  '/api/v1/jobs/{id}': {
    parameters: JobParameters;
    get: {
      parameters: JobParameters;
      requestBody?: never;
      responses: {
        200: {
          headers: { [name: string]: unknown };
          content: { 'application/json': { success: true; data: TJob } | TJob };
        };
        401: ErrorAnswer;
        404: ErrorAnswer;
      };
    };
  };
  '/api/v1/jobs/{id}/result': {
    parameters: JobParameters;
    get: {
      parameters: JobParameters;
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/octet-stream': string } };
        401: ErrorAnswer;
        404: ErrorAnswer;
        409: ErrorAnswer;
      };
    };
  };
}

export const terminalStatuses: readonly TJobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** The job of a `GET /jobs/{id}` answer, whether it comes as `{ success, data }` or bare. */
export function unwrapJob(body: { success: true; data: TJob } | TJob): TJob {
  return 'data' in body && typeof body.data === 'object' ? body.data : (body as TJob);
}

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
