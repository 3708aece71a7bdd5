import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZUploadFile, type TEndpointGroup } from '@docflow/contracts';
import { FALLBACK_MAX_FILE_SIZE, receiveUpload, type UploadedFile } from '../../lib/uploads';
import { meterRequest } from '../../plugins/usage-metering';
import type { Engines } from '../../core/engines';
import { createJob, type PdfJob, type PreparedPdf } from '../../core/operations/pdf/job';
import type { Workspace } from '../../core/workspace';
import { meteredPrepare, type CallMeter } from '../../endpoints/processing-endpoint';
import type { Outcome } from '../../lib/outcome';
import { sendOutcome } from '../../lib/send-result';
import { runJobCall } from '../../plugins/job-call';
import type { ApiKeyContext } from '../../plugins/processing-guard';
import { multipartValidator, requestSignal } from '../../plugins/request-signal';
import { consumeExtraCalls } from '../../plugins/rate-limits';
import { DOWNLOAD_FROM_FIELD, downloadFrom } from './download-from';
import { gotenbergErrorAnswer } from './errors';
import { finishingGroups } from './finishing';
import { GotenbergForm, invalidForm } from './form';
import { outputsOutcome, type NamedFile } from './output';
import { readWebhook, WEBHOOK_HEADERS } from './webhook';

/**
 * A Gotenberg-compatible route as a value (Gotenberg's own `api.Route`): its path, the DocFlow endpoint it is
 * counted and metered as, the files it takes, and a handler that reads the form and returns its outputs. Around the
 * handler: the processing guard (the key as x-api-key or Basic password, plan, limits, metering), the upload with the
 * plan's caps, Gotenberg's file order, and the answer (one file, a zip, or JSON). With Gotenberg's webhook headers the
 * call is a DocFlow job (answered 204), run later by the same call through the route's job door, its end told in
 * Gotenberg's shape.
 */

export interface GotenbergContext {
  form: GotenbergForm;
  /** The uploaded files in Gotenberg's order: by name, numbers first (1_a.pdf, 2_b.pdf, 10_c.pdf). */
  files: UploadedFile[];
  /** Files sent in the route's other file fields (`watermark`, `stamp`, `embeds`), in the order sent. */
  extras: UploadedFile[];
  job: PdfJob;
  /** What the call tells the usage meter (its pages). */
  meter: CallMeter;
  /** Check, count (against the plan) and open one uploaded PDF; its pages go to the usage meter. */
  prepare(file: UploadedFile): Promise<PreparedPdf>;
}

export interface GotenbergRouteSpec {
  path: string;
  /** The API reference: what the route does, and the form fields it takes (Gotenberg's names). */
  summary: string;
  fields: string;
  /** The DocFlow endpoint this route is counted and metered as, and its group (the key's plan must include it). */
  meterAs: { group: TEndpointGroup; endpoint: string };
  files: {
    min: number;
    max: number;
    /** Extensions taken (lower case, with the dot); other files are refused by name. Absent: any file. */
    extensions?: string[];
    /**
     * Each file is its own call (a DocFlow endpoint that takes one file): N files are counted as N calls, as N calls
     * to that endpoint would be. Absent: the files make one call (a merge, a page and its assets).
     */
    perFile?: boolean;
    /** File fields taken beside `files` (Gotenberg's `watermark`, `stamp`, `embeds`): any file, not counted as calls. */
    extraFields?: string[];
  };
  handler(ctx: GotenbergContext): Promise<NamedFile[] | { json: unknown }>;
}

/** One usage event per file, metered as the DocFlow endpoint: what the limits counted, the analytics show. */
const perFileStages = (meterAs: GotenbergRouteSpec['meterAs'], files: UploadedFile[]) =>
  files.map((f) => ({
    endpoint: meterAs.endpoint,
    group: meterAs.group,
    statusCode: null,
    errorCode: null,
    durationMs: null,
    bytesIn: f.size,
    bytesOut: null,
    pages: null,
  }));

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** The `files` in Gotenberg's order (by name, numbers first); the other fields' files as sent. */
function inGotenbergOrder(all: UploadedFile[]): { files: UploadedFile[]; extras: UploadedFile[] } {
  const files = all.filter((f) => f.field === 'files').sort((a, b) => byName.compare(a.filename, b.filename));
  return { files, extras: all.filter((f) => f.field !== 'files') };
}

/** Where a Gotenberg call runs, given by its door (the HTTP route, or a job's run). */
interface GotenbergEnv {
  engines: Engines;
  workspace(): Promise<Workspace>;
  signal: AbortSignal;
  key: ApiKeyContext | undefined;
  meter: CallMeter;
  /** The Gotenberg-Output-Filename header sent with the call. */
  outputName: string | undefined;
}

/** A checked Gotenberg call run: the form read by the route's handler, its outputs as Gotenberg answers them. */
async function runGotenberg(
  spec: GotenbergRouteSpec,
  call: { fields: Record<string, string>; files: UploadedFile[]; extras: UploadedFile[] },
  env: GotenbergEnv,
): Promise<Outcome> {
  if (spec.files.perFile && call.files.length > 1) env.meter.stages = perFileStages(spec.meterAs, call.files);
  const job = await createJob(env.engines, await env.workspace(), {
    signal: env.signal,
    maxPages: env.key?.limits.maxPagesPerPdf ?? null,
    render: env.key?.processing,
  });
  const prepare = meteredPrepare(env.meter, job);
  const result = await spec.handler({
    form: new GotenbergForm(call.fields),
    files: call.files,
    extras: call.extras,
    job,
    meter: env.meter,
    prepare: (file) => prepare(file, { label: `'${file.filename}'` }),
  });
  if (Array.isArray(result)) return outputsOutcome(result, env.outputName);
  return { kind: 'bytes', data: Buffer.from(JSON.stringify(result.json)), mimeType: 'application/json' };
}

const headerOf = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function gotenbergRoute(app: FastifyInstance, spec: GotenbergRouteSpec): void {
  // A job of this route (a Gotenberg webhook, or an API node's call) runs the same call, its errors told Gotenberg's way.
  app.jobDoors.set(`${app.prefix}${spec.path}`, (job, run, rec) =>
    runJobCall(app, job, run, rec, {
      json: false,
      renderError: (e) => gotenbergErrorAnswer(e),
      call: ({ ws, files, key, meter }) =>
        runGotenberg(
          spec,
          { fields: job.fields, ...inGotenbergOrder(files) },
          {
            engines: app.engines,
            workspace: async () => ws,
            signal: run.signal,
            key,
            meter,
            outputName: job.requestHeaders['gotenberg-output-filename'],
          },
        ),
    }),
  );
  app.route({
    method: 'POST',
    url: spec.path,
    ...app.processingGuard(spec.meterAs.group, { basicAuth: true, meterAs: spec.meterAs.endpoint }),
    validatorCompiler: multipartValidator,
    schema: {
      summary: spec.summary,
      description:
        `Form fields: ${spec.fields}. A field DocFlow does not support is refused naming it (400), never ignored. ` +
        `Counted and limited as POST /api/v1${spec.meterAs.endpoint} (the \`${spec.meterAs.group}\` group)` +
        (spec.files.perFile ? ', one call per file' : '') +
        '; merging several outputs, split, flatten, metadata and encryption fields also need the `pdf` group. ' +
        '`downloadFrom` (JSON list of `{url, extraHttpHeaders, embedded, field}`) fetches files as if uploaded, ' +
        "under the outbound URL rules and the plan's file size limit; the answer must name the file in Content-Disposition " +
        '(refused by name when the operator turned it off: GOTENBERG_DISABLE_DOWNLOAD_FROM).',
      consumes: ['multipart/form-data'],
      body: z
        .object({
          files: z
            .array(ZUploadFile)
            .max(spec.files.max)
            .describe(
              `The files (${spec.files.extensions?.join(', ') ?? 'see the form fields'}), taken in name order (1_a, 2_b, 10_c)`,
            )
            .optional(),
          ...Object.fromEntries(
            (spec.files.extraFields ?? []).map((field) => [
              field,
              z.array(ZUploadFile).optional().describe(`The \`${field}\` files (see the form fields)`),
            ]),
          ),
        })
        .catchall(z.string()),
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // Checked before the upload is read, as Gotenberg does: a webhook refused costs no upload.
      const webhook = readWebhook(request);
      if (webhook)
        await app.jobs.allowWebhook(request, [
          { name: WEBHOOK_HEADERS.url, url: webhook.url },
          ...(webhook.format.errorUrl ? [{ name: WEBHOOK_HEADERS.errorUrl, url: webhook.format.errorUrl }] : []),
          ...(webhook.format.eventsUrl ? [{ name: WEBHOOK_HEADERS.eventsUrl, url: webhook.format.eventsUrl }] : []),
        ]);
      const limits = request.apiKey?.limits;
      const maxFileSize = limits?.maxFileSize ?? FALLBACK_MAX_FILE_SIZE;
      const fileFields = ['files', ...(spec.files.extraFields ?? [])];
      const upload = await receiveUpload(request, {
        maxFileSize,
        maxFiles: spec.files.max,
        fileFields,
        // Gotenberg reads a field sent twice as a list (several watermarks and stamps), its first value otherwise.
        keepRepeated: true,
      });
      // Turned off by the operator: named rather than ignored (Gotenberg ignores it, and then misses the files).
      if (app.config.GOTENBERG_DISABLE_DOWNLOAD_FROM && upload.fields[DOWNLOAD_FROM_FIELD] !== undefined)
        throw invalidForm(
          `form field '${DOWNLOAD_FROM_FIELD}' is turned off on this server; send the files themselves`,
        );
      // Gotenberg's downloadFrom: fetched now, then taken as uploaded files (a job stores them as such).
      upload.files.push(
        ...(await downloadFrom(upload.fields[DOWNLOAD_FROM_FIELD], {
          rules: app.config.outbound,
          workspace: await request.workspace(),
          maxFileSize,
          maxFiles: spec.files.max - upload.files.length,
          fileFields,
          signal: requestSignal(reply),
        })),
      );
      delete upload.fields[DOWNLOAD_FROM_FIELD];
      request.usage.bytesIn = upload.files.reduce((n, f) => n + f.size, 0);
      const { files, extras } = inGotenbergOrder(upload.files);
      const { extensions } = spec.files;
      if (extensions) {
        const other = files.find((f) => !extensions.includes(path.extname(f.filename).toLowerCase()));
        if (other)
          throw invalidForm(
            `form file '${other.filename}' has an extension this route does not take (${extensions.join(', ')})`,
          );
      }
      if (files.length < spec.files.min)
        throw invalidForm(`no form file found for extensions: [${(extensions ?? ['any']).join(' ')}]`);
      // What the call will do, before any work and before it is stored as a job: the groups its finishing draws
      // on, and one call per file where the DocFlow endpoint takes one (a job's run was counted at its admission).
      await app.requireGroups(
        request,
        reply,
        finishingGroups(
          upload.fields,
          files.length,
          extras.map((f) => f.field),
        ),
      );
      const calls = spec.files.perFile ? files.length : 1;
      await consumeExtraCalls(app.rateLimits, request, reply, calls - 1);
      // The files are checked now; the form when the job runs (its problems go to the error URL, as in Gotenberg).
      if (webhook) return app.jobs.admit(request, reply, upload.files, upload.fields, { webhook });
      // An API node runs no processing: a worker runs the call, answered here as it answered there.
      if (app.jobs.remoteOnly) return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      const meter: CallMeter = {};
      try {
        const outcome = await runGotenberg(
          spec,
          { fields: upload.fields, files, extras },
          {
            engines: app.engines,
            workspace: () => request.workspace(),
            signal: requestSignal(reply),
            key: request.apiKey,
            meter,
            outputName: headerOf(request.headers['gotenberg-output-filename']),
          },
        );
        return await sendOutcome(request, reply, outcome);
      } finally {
        meterRequest(request, meter);
      }
    },
  });
}
