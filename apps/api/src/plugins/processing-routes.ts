import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAsyncFields,
  ZErrorResponse,
  ZJobAdmittedResponse,
  ZUploadFile,
  type TEndpointGroup,
} from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { receiveUpload, type ReceivedUpload, type UploadedFile } from '../lib/uploads';
import { createJob, preparePdf, type PdfJob, type PreparedPdf } from '../core/pdf/operations';
import { EngineError } from '../core/errors';

/**
 * Processing routes as values: each route (PDF, conversion, OCR) is a spec (path, form fields, files, answer) and a
 * handler; `registerProcessingRoute` adds the guard, the documentation schema, the upload with the plan's caps,
 * field parsing and the job.
 */

export interface FileSpec {
  /** Form field name(s) carrying the input file(s). */
  field: 'file' | 'files';
  min: number;
  max: number;
  description: string;
  /** Other accepted file fields (e.g. a watermark `image`), documented and allowed once each. */
  extra?: Record<string, string>;
}

export interface ProcessingRouteContext<F> {
  request: FastifyRequest;
  reply: FastifyReply;
  fields: F;
  upload: ReceivedUpload;
  /** The uploaded input files, in the order sent (files of `extra` fields excluded). */
  files: UploadedFile[];
  job: PdfJob;
  /** Check, count (against the plan) and open one uploaded PDF; the pages go to the usage meter. */
  prepare(
    file: UploadedFile,
    opts?: { password?: string; keepEncryption?: boolean; label?: string },
  ): Promise<PreparedPdf>;
}

export interface ProcessingRouteSpec<F extends z.ZodObject> {
  path: string;
  /** Endpoint group checked against the key's plan, and the API reference tag (default `pdf`). */
  group?: TEndpointGroup;
  /** What the uploaded files are, in messages (default "PDF"). */
  noun?: string;
  summary: string;
  description?: string;
  fields: F;
  files: FileSpec;
  /** JSON data schema of the answer; omitted: the answer is a file (or JSON with base64 on Accept: application/json). */
  response: z.ZodType;
  /**
   * Checks and counts that must happen when the call is admitted, before any work: in the request itself, or before
   * it is stored as a job (`request.jobRun` is set when the stored call is run later).
   */
  precheck?(ctx: { request: FastifyRequest; reply: FastifyReply; fields: z.output<F> }): Promise<void>;
  handler(ctx: ProcessingRouteContext<z.output<F>>): Promise<unknown>;
}

/** Multipart bodies are read from the parts by the handler: the body schema is for the API reference only. */
export const multipartValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? () => ({ value: undefined })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

/** First issue of a zod error as a client message naming the field and what is valid. */
export function fieldError(error: z.ZodError): AppError {
  const issues = error.issues.map((i) => ({ field: i.path.join('.') || '(form)', message: i.message }));
  const first = issues[0]!;
  return new AppError('INVALID_INPUT', `${first.field}: ${first.message}`, { details: { fields: issues } });
}

export function parseFields<F extends z.ZodType>(schema: F, fields: Record<string, string>): z.output<F> {
  const r = schema.safeParse(fields);
  if (!r.success) throw fieldError(r.error);
  return r.data;
}

/**
 * `preparePdf` for a request's inputs, their pages added up for the usage meter; a file over the page limit still
 * reports the pages counted before it (the call is metered with them).
 */
export function meteredPrepare(
  request: FastifyRequest,
  job: PdfJob,
): (file: UploadedFile, opts: { label: string; password?: string; keepEncryption?: boolean }) => Promise<PreparedPdf> {
  let pages = 0;
  return async (file, opts) => {
    try {
      const p = await preparePdf(job, file, opts);
      pages += p.pages;
      request.usage.pages = pages;
      return p;
    } catch (err) {
      if (err instanceof EngineError && err.code === 'PAGE_LIMIT_EXCEEDED') request.usage.pages = pages;
      throw err;
    }
  };
}

/** Cancelled when the client disconnects before the answer is complete: tools are killed, queued work dropped. */
export function requestSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** What stops a call's work: the client leaving, or, on a job's run, the job being cancelled. */
export function callSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  return request.jobRun ? AbortSignal.any([request.jobRun.signal, requestSignal(reply)]) : requestSignal(reply);
}

/** Without a key context (never in production: the guard sets it) these bounds apply. */
const FALLBACK_MAX_FILE = 50 * 1_048_576;

export function registerProcessingRoute<F extends z.ZodObject>(
  app: FastifyInstance,
  spec: ProcessingRouteSpec<F>,
): void {
  const fileDoc =
    spec.files.field === 'files'
      ? { files: z.array(ZUploadFile).min(spec.files.min).max(spec.files.max).describe(spec.files.description) }
      : { file: ZUploadFile.describe(spec.files.description) };
  const extraDoc = Object.fromEntries(
    Object.entries(spec.files.extra ?? {}).map(([k, d]) => [k, ZUploadFile.optional().describe(d)]),
  );
  const body = spec.fields.extend({ ...fileDoc, ...extraDoc, ...ZAsyncFields.shape });
  const errors = {
    400: ZErrorResponse,
    401: ZErrorResponse,
    403: ZErrorResponse,
    413: ZErrorResponse,
    415: ZErrorResponse,
    422: ZErrorResponse,
    429: ZErrorResponse,
    503: ZErrorResponse,
    504: ZErrorResponse,
  };

  const route: RouteOptions = {
    method: 'POST',
    url: spec.path,
    ...app.processingGuard(spec.group ?? 'pdf'),
    validatorCompiler: multipartValidator,
    schema: {
      tags: [spec.group ?? 'pdf'],
      summary: spec.summary,
      description: spec.description,
      security: [{ apiKey: [] }],
      consumes: ['multipart/form-data'],
      body,
      response: { 200: spec.response, 202: ZJobAdmittedResponse, ...errors },
    },
    handler: async (request, reply) => {
      const limits = request.apiKey?.limits;
      const noun = spec.noun ?? 'PDF';
      const extraFields = Object.keys(spec.files.extra ?? {});
      const upload = await receiveUpload(request, {
        maxFileSize: limits?.maxFileSize ?? FALLBACK_MAX_FILE,
        maxFiles: spec.files.max + extraFields.length,
        fileFields: spec.files.field === 'files' ? ['files', 'file', ...extraFields] : ['file', ...extraFields],
      });
      request.usage.bytesIn = upload.files.reduce((n, f) => n + f.size, 0);
      const inputs = upload.files.filter((f) => !extraFields.includes(f.field));
      for (const k of extraFields) {
        if (upload.files.filter((f) => f.field === k).length > 1)
          throw new AppError('INVALID_INPUT', `${k}: send one file at most`);
      }
      if (inputs.length < spec.files.min) {
        throw new AppError(
          'INVALID_INPUT',
          spec.files.min === 1 && spec.files.max === 1
            ? `${spec.files.field}: ${/^([aeiou]|html)/i.test(noun) ? 'an' : 'a'} ${noun} file is required (multipart field "${spec.files.field}")`
            : `${spec.files.field}: send between ${spec.files.min} and ${spec.files.max} ${noun} files (got ${inputs.length})`,
          { details: { field: spec.files.field, min: spec.files.min, max: spec.files.max } },
        );
      }
      if (inputs.length > spec.files.max) {
        throw new AppError(
          'INVALID_INPUT',
          `${spec.files.field}: at most ${spec.files.max} file${spec.files.max === 1 ? '' : 's'} (got ${inputs.length})`,
          {
            details: { field: spec.files.field, max: spec.files.max },
          },
        );
      }
      const { async: _async, callbackUrl: _callback, ...own } = upload.fields;
      const fields = parseFields(spec.fields, own);
      await spec.precheck?.({ request, reply, fields });
      // Checked like the synchronous call (fields, file counts), then stored and answered at once.
      if (!request.jobRun && app.jobs.wanted(request, upload.fields))
        return app.jobs.admit(request, reply, upload.files, upload.fields);
      // An API node runs no processing: the call is a job a worker runs, answered here when it is done.
      if (!request.jobRun && app.jobs.remoteOnly)
        return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      const job = await createJob(app.engines, await request.workspace(), {
        signal: callSignal(request, reply),
        progress: request.jobRun ? (done, total) => request.jobRun?.progress((done / total) * 100) : undefined,
        maxPages: limits?.maxPagesPerPdf ?? null,
        render: request.apiKey?.processing,
      });
      const prepare = meteredPrepare(request, job);
      const ctx: ProcessingRouteContext<z.output<F>> = {
        request,
        reply,
        fields,
        upload,
        files: inputs,
        job,
        async prepare(file, opts = {}) {
          const label =
            opts.label ??
            (inputs.length > 1
              ? `${spec.files.field}[${inputs.indexOf(file) + 1}] ("${file.filename}")`
              : `"${file.filename}"`);
          return prepare(file, { label, password: opts.password, keepEncryption: opts.keepEncryption });
        },
      };
      return spec.handler(ctx);
    },
  };
  app.route(route);
}
