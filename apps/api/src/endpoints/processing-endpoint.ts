import type { z } from 'zod';
import {
  ANY_ENDPOINT_GROUP,
  catalogueEntry,
  type CatalogueFields,
  type TCataloguePath,
  type TEndpointGroup,
  type ZJobStep,
} from '@docflow/contracts';
import type { Engines } from '../core/engines';
import { EngineError } from '../core/errors';
import { createJob, preparePdf, type PdfJob, type PreparedPdf } from '../core/operations/pdf/job';
import type { RenderLimits } from '../core/operations/convert/interfaces';
import type { Workspace } from '../core/workspace';
import { AppError } from '../lib/app-error';
import { fieldIssue } from '../lib/field-issue';
import type { Outcome } from '../lib/outcome';
import type { UploadedFile } from '../lib/uploads';
import type { StageUsage } from '../services/usage/call-events';

export type { StageUsage };

/**
 * A processing endpoint as a value: what it is called (its path under its group), the endpoint group it draws on,
 * its fields and files, its answer, and a transport-free `run`. Doors are adapters over these values: the v1 HTTP
 * route (routes/v1/processing-door.ts), a job's run on a worker (plugins/jobs.ts), the OpenAPI document; none of
 * them holds a copy of what an endpoint does.
 */
export interface ProcessingEndpoint<F extends z.ZodObject = z.ZodObject> {
  /** The path under /api/v1, as the catalogue names it (`/pdf/merge`). */
  path: TCataloguePath;
  /** Endpoint group checked against the key's plan, and the API reference tag. */
  group: TEndpointGroup;
  /** What the uploaded files are, in messages (default "PDF"). */
  noun?: string;
  /**
   * How the call comes: a multipart form (fields and files, the default), or a JSON body that is the fields (the QR
   * codes' routes; `files` then takes none).
   */
  body: 'multipart' | 'json';
  summary: string;
  description?: string;
  fields: F;
  files: FileSpec;
  /** JSON data schema of the answer; a file answer's is the JSON form of the file (on Accept: application/json). */
  response: z.ZodType;
  /**
   * Checks and counts that happen once, when the call is admitted, before any work (the pipeline counts its
   * stages): in the synchronous call itself, or before the call is stored as a job, never again at the job's run.
   */
  admit?(call: {
    fields: z.output<F>;
    /** Files of the `extra` fields (a mail merge's `csv`, whose rows are counted). */
    extras: Record<string, UploadedFile | undefined>;
    allowed: readonly TEndpointGroup[];
  }): Promise<{ extraCalls?: number } | void>;
  run(ctx: EndpointContext<z.output<F>>): Promise<Outcome>;
}

export interface FileSpec {
  /** Form field name carrying the input file(s): `files` (several, `file` accepted too), `file`, or another name. */
  field: string;
  /** Other names accepted for that field (`file` for a QR decode's `image`). */
  also?: string[];
  min: number;
  max: number;
  description: string;
  /** Other accepted file fields (e.g. a watermark `image`), documented and allowed once each. */
  extra?: Record<string, string>;
}

/** What a file field is, in the API reference: its name and counts come from the catalogue. */
export type FileDoc = Omit<FileSpec, 'field' | 'min' | 'max'>;

/** The catalogue paths that take fields: the ones a processing endpoint can stand behind. */
export type EndpointPath = {
  [P in TCataloguePath]: CatalogueFields<P> extends z.ZodObject ? P : never;
}[TCataloguePath];

/** What an endpoint adds to its catalogue entry: how it runs, its answer, and the words of its reference page. */
export type EndpointSpec<F extends z.ZodObject> = Omit<
  ProcessingEndpoint<F>,
  'path' | 'group' | 'summary' | 'fields' | 'files' | 'body'
> & { files?: FileDoc };

/**
 * The endpoint of a catalogue path: its group, summary, fields and file counts are the catalogue's (the landing
 * page, the playground and the client read the same entry), so an endpoint is written once.
 */
export function defineEndpoint<P extends EndpointPath>(
  path: P,
  spec: EndpointSpec<CatalogueFields<P>>,
): ProcessingEndpoint<CatalogueFields<P>> {
  const entry = catalogueEntry(path);
  if (entry.group === ANY_ENDPOINT_GROUP || entry.method !== 'POST' || !entry.fields) {
    throw new Error(`${path}: the catalogue lists no processing call here`);
  }
  const files = entry.files ?? { field: 'file', min: 0, max: 0 };
  return {
    ...spec,
    path,
    group: entry.group,
    summary: entry.summary,
    fields: entry.fields as CatalogueFields<P>,
    body: entry.body === 'json' ? 'json' : 'multipart',
    files: { description: '', ...spec.files, field: files.field, min: files.min, max: files.max },
  };
}

/** A step of a call that counts as several (a batch's files): reported to its job as each one ends. */
export type CallStep = z.infer<typeof ZJobStep>;

/** What a run tells the meter, whatever the door: the pages it processed, or its stages metered apart. */
export interface CallMeter {
  pages?: number;
  /** The bytes the call produced, when not the size of its answer (a QR code answered as JSON). */
  bytesOut?: number;
  stages?: StageUsage[];
}

/** A call as every door hands it over: its own fields (as sent, strings) and its uploaded files. */
export interface EndpointCall {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** Whose call it is: the account of the key, and whether that account's owner made the key. */
export interface CallCaller {
  userId: string;
  /**
   * The key was made by the account's owner, not by an administrator for them: only such a key reaches what the
   * account keeps (its stored signing certificates), as only it reads all the account's jobs.
   */
  ownKey: boolean;
}

/** Where and how a call runs, given by its door. */
export interface CallEnv {
  engines: Engines;
  caller: CallCaller | null;
  workspace(): Promise<Workspace>;
  /** Stops the work: the client left, or the job was cancelled. */
  signal: AbortSignal;
  /** The key's plan: page limit, render limits, and the groups it holds (a pipeline checks its stages'). */
  maxPagesPerPdf: number | null;
  render?: RenderLimits;
  allowed: readonly TEndpointGroup[];
  meter: CallMeter;
  /** A job's run: progress 0-100, and a batch's per-file outcome. */
  progress?(percent: number): void;
  step?(step: CallStep, total: number): void;
}

export interface EndpointContext<F> {
  fields: F;
  caller: CallCaller | null;
  /** The input files, in the order sent (files of `extra` fields excluded). */
  files: UploadedFile[];
  /** Files of the `extra` fields (a watermark's `image`), by field. */
  extras: Record<string, UploadedFile | undefined>;
  job: PdfJob;
  meter: CallMeter;
  allowed: readonly TEndpointGroup[];
  step?(step: CallStep, total: number): void;
  /** Check, count (against the plan) and open one uploaded PDF; the pages go to the usage meter. */
  prepare(
    file: UploadedFile,
    opts?: { password?: string; keepEncryption?: boolean; label?: string },
  ): Promise<PreparedPdf>;
}

/** First issue of a zod error as a client message naming the field and what is valid. */
export function fieldError(error: z.ZodError): AppError {
  const issues = error.issues.map((i) => {
    const { path, code, message, ...params } = i;
    return fieldIssue(path.join('.') || '(form)', message, code, params);
  });
  const first = issues[0]!;
  return new AppError('INVALID_INPUT', `${first.field}: ${first.message}`, { details: { fields: issues } });
}

export function parseFields<F extends z.ZodType>(schema: F, fields: Record<string, unknown>): z.output<F> {
  const r = schema.safeParse(fields);
  if (!r.success) throw fieldError(r.error);
  return r.data;
}

/** A call checked against its endpoint: the files counted, the fields parsed. */
export interface AdmittedCall<F> {
  fields: F;
  files: UploadedFile[];
  extras: Record<string, UploadedFile | undefined>;
}

/** The file counts and fields of a call, checked as its endpoint says (a 400/422 naming what is wrong). */
export function checkCall<F extends z.ZodObject>(
  endpoint: ProcessingEndpoint<F>,
  call: EndpointCall,
): AdmittedCall<z.output<F>> {
  const spec = endpoint.files;
  const noun = endpoint.noun ?? 'PDF';
  const extraFields = Object.keys(spec.extra ?? {});
  const inputs = call.files.filter((f) => !extraFields.includes(f.field));
  const extras: Record<string, UploadedFile | undefined> = {};
  for (const k of extraFields) {
    const sent = call.files.filter((f) => f.field === k);
    if (sent.length > 1)
      throw new AppError('INVALID_INPUT', `${k}: send one file at most`, { details: { field: k, max: 1 } });
    extras[k] = sent[0];
  }
  if (inputs.length < spec.min) {
    throw new AppError(
      'INVALID_INPUT',
      spec.min === 1 && spec.max === 1
        ? `${spec.field}: ${/^([aeiou]|html)/i.test(noun) ? 'an' : 'a'} ${noun} file is required (multipart field "${spec.field}")`
        : `${spec.field}: send between ${spec.min} and ${spec.max} ${noun} files (got ${inputs.length})`,
      { details: { field: spec.field, min: spec.min, max: spec.max } },
    );
  }
  if (inputs.length > spec.max) {
    throw new AppError(
      'INVALID_INPUT',
      `${spec.field}: at most ${spec.max} file${spec.max === 1 ? '' : 's'} (got ${inputs.length})`,
      { details: { field: spec.field, max: spec.max } },
    );
  }
  const { async: _async, callbackUrl: _callback, ...own } = call.fields;
  return { fields: parseFields(endpoint.fields, own), files: inputs, extras };
}

/**
 * `preparePdf` for a call's inputs, their pages added up for the meter; a file over the page limit still reports
 * the pages counted before it (the call is metered with them).
 */
export function meteredPrepare(
  meter: CallMeter,
  job: PdfJob,
): (file: UploadedFile, opts: { label: string; password?: string; keepEncryption?: boolean }) => Promise<PreparedPdf> {
  let pages = 0;
  return async (file, opts) => {
    try {
      const p = await preparePdf(job, file, opts);
      pages += p.pages;
      meter.pages = pages;
      return p;
    } catch (err) {
      if (err instanceof EngineError && err.code === 'PAGE_LIMIT_EXCEEDED') meter.pages = pages;
      throw err;
    }
  };
}

/** Runs a checked call of `endpoint`: the one code path of every door once the gate has let the call through. */
export async function runEndpoint<F extends z.ZodObject>(
  endpoint: ProcessingEndpoint<F>,
  call: AdmittedCall<z.output<F>>,
  env: CallEnv,
): Promise<Outcome> {
  const job = await createJob(env.engines, await env.workspace(), {
    signal: env.signal,
    progress: env.progress ? (done, total) => env.progress?.((done / total) * 100) : undefined,
    maxPages: env.maxPagesPerPdf,
    render: env.render,
  });
  const prepare = meteredPrepare(env.meter, job);
  const several = call.files.length > 1;
  return endpoint.run({
    ...call,
    job,
    caller: env.caller,
    meter: env.meter,
    allowed: env.allowed,
    step: env.step,
    prepare(file, opts = {}) {
      const label =
        opts.label ??
        (several
          ? `${endpoint.files.field}[${call.files.indexOf(file) + 1}] ("${file.filename}")`
          : `"${file.filename}"`);
      return prepare(file, { label, password: opts.password, keepEncryption: opts.keepEncryption });
    },
  });
}

/** The processing endpoints of this server by their full route (`/api/v1/pdf/merge`), for the doors that look up. */
export type EndpointRegistry = Map<string, ProcessingEndpoint>;
