import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { createWorkspace, type Workspace } from '../core/workspace';
import {
  checkCall,
  parseFields,
  runEndpoint,
  type AdmittedCall,
  type CallMeter,
  type ProcessingEndpoint,
} from '../endpoints/processing-endpoint';
import type { AppError } from '../lib/app-error';
import { renderOutcome, type Outcome, type Rendered } from '../lib/outcome';
import type { UploadedFile } from '../lib/uploads';
import type { KeyRecord } from '../services/api-keys/lookup';
import { callUsageEvents } from '../services/usage/call-events';
import type { JobAnswer, JobExecution, JobRun } from '../services/jobs/runner';
import type { JobStore } from '../services/jobs/store';
import { errorAnswer, toAppError } from './error-handler';
import { keyContextOf } from './plan-gate';
import type { ApiKeyContext } from './processing-guard';
import { giveBack } from './rate-limits';

type JobRow = Parameters<JobExecution>[0];

/**
 * How a door runs its stored calls: given the job, its run (cancellation, progress) and the key that made it, the
 * answer to store. Each door registers one per route (`app.jobDoors`), beside its HTTP route.
 */
export type JobDoor = (job: JobRow, run: JobRun, rec: KeyRecord) => Promise<JobAnswer>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The job door of each route that takes jobs, by full route (`/api/v1/pdf/merge`, `/gotenberg/forms/…`). */
    jobDoors: Map<string, JobDoor>;
  }
}

/** The input that is a JSON call's whole body (the QR codes' routes), stored as a file of its job. */
export const JSON_BODY = '#body';

/** What a door's run of a stored call is given: its workspace with the stored files in it, the key, the meter. */
export interface JobCallContext {
  ws: Workspace;
  /** The stored files, as the uploaded files of the call (a JSON body is not among them). */
  files: UploadedFile[];
  key: ApiKeyContext;
  meter: CallMeter;
  run: JobRun;
}

/** The stored inputs of a job, as the uploaded files of its call, in a workspace of its own. */
async function filesOf(store: JobStore, job: JobRow, ws: Workspace): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  for (const [i, input] of job.inputs.entries()) {
    if (input.field === JSON_BODY) continue;
    const path = ws.file(`in-${i + 1}-${input.fileName || 'upload'}`);
    await pipeline(await store.openInput(job.id, i), createWriteStream(path));
    files.push({ field: input.field, filename: input.fileName, mimetype: input.mimeType, path, size: input.size });
  }
  return files;
}

const serialize = (r: Rendered): Readable =>
  r.body instanceof Readable ? r.body : Readable.from([Buffer.isBuffer(r.body) ? r.body : JSON.stringify(r.body)]);

/** The JSON error answer, as the v1 error handler gives it (a job's id in place of a request's). */
export function jsonError(error: AppError, requestId: string): Rendered {
  return {
    statusCode: error.code === 'CLIENT_CLOSED_REQUEST' ? 499 : error.statusCode,
    contentType: 'application/json',
    headers: {},
    fileName: null,
    inline: false,
    body: errorAnswer(requestId, error),
    size: null,
  };
}

/**
 * A stored call run on this node, whatever its door: its files taken from the store into a workspace of its own,
 * `call` run, its outcome rendered as the synchronous answer (or its error, as the door renders errors), then,
 * once stored, metered as the synchronous call is, and given back to the key's limits when the server failed it.
 * The gate was passed at admission and again as the job started (plugins/jobs.ts).
 */
export async function runJobCall(
  app: FastifyInstance,
  job: JobRow,
  run: JobRun,
  rec: KeyRecord,
  door: {
    call(ctx: JobCallContext): Promise<Outcome>;
    /** Files answered as JSON (Accept: application/json was sent with the call). */
    json: boolean;
    renderError(error: AppError, jobId: string): Rendered;
  },
): Promise<JobAnswer> {
  const started = performance.now();
  const key = keyContextOf(rec);
  const ws = await createWorkspace(app.config.tmpDir, app.engines.accounts);
  const meter: CallMeter = {};
  let rendered: Rendered;
  let error: AppError | null = null;
  try {
    const files = await filesOf(app.jobs.store, job, ws);
    rendered = await renderOutcome(await door.call({ ws, files, key, meter, run }), { json: door.json });
  } catch (err) {
    error = toAppError(err);
    if (error.statusCode >= 500) app.log.error({ err, jobId: job.id }, 'job run failed');
    rendered = door.renderError(error, job.id);
  }
  const failedHere = rendered.statusCode >= 500;
  // A call the server failed gave the caller nothing: its quota goes back, as on the synchronous door.
  if (failedHere) await giveBack(app.rateLimits, job.limitReceipts, key.limits);
  const pages = meter.pages ?? rendered.pages ?? null;
  return {
    statusCode: rendered.statusCode,
    contentType: rendered.contentType,
    fileName: rendered.fileName,
    headers: Object.fromEntries(Object.entries(rendered.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
    body: serialize(rendered),
    pages,
    error: error ? { code: error.code, message: error.message } : null,
    async settle(stored) {
      await ws.dispose();
      if (!stored) return;
      for (const event of callUsageEvents({
        keyId: rec.keyId,
        userId: rec.userId,
        endpoint: job.endpoint,
        group: job.endpointGroup,
        method: 'POST',
        statusCode: rendered.statusCode,
        durationMs: performance.now() - started,
        bytesIn: job.bytesIn,
        bytesOut: meter.bytesOut ?? stored.size,
        pages,
        errorCode: error?.code ?? null,
        counted: !failedHere,
        requestId: job.id,
        stages: meter.stages,
      }))
        app.apiKeyGuard.meter.record(event);
    },
  };
}

/** The stored call of a JSON endpoint: its body, parsed as its fields. */
async function jsonCallOf(store: JobStore, job: JobRow, endpoint: ProcessingEndpoint) {
  const chunks: Buffer[] = [];
  for await (const c of await store.openInput(job.id, 0)) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const call: AdmittedCall<Record<string, unknown>> = {
    fields: parseFields(endpoint.fields, body),
    files: [],
    extras: {},
  };
  return call;
}

/** The jobs' door of a processing endpoint: the stored call checked and run through the endpoint's `run`. */
export const endpointJobDoor =
  (app: FastifyInstance, endpoint: ProcessingEndpoint): JobDoor =>
  (job, run, rec) =>
    runJobCall(app, job, run, rec, {
      json: /\bapplication\/json\b/i.test(job.requestHeaders.accept ?? ''),
      renderError: jsonError,
      async call({ ws, files, key, meter }) {
        const call =
          endpoint.body === 'json'
            ? await jsonCallOf(app.jobs.store, job, endpoint)
            : checkCall(endpoint, { fields: job.fields, files });
        return runEndpoint(endpoint, call, {
          engines: app.engines,
          workspace: async () => ws,
          caller: { userId: key.userId, ownKey: key.madeByOwner },
          signal: run.signal,
          maxPagesPerPdf: key.limits.maxPagesPerPdf,
          render: key.processing,
          allowed: key.allowedEndpoints,
          meter,
          progress: (p) => run.progress(p),
          step: (s, total) => run.step(s, total),
        });
      },
    });
