import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZUploadFile, type TEndpointGroup } from '@docflow/contracts';
import { receiveUpload, type UploadedFile } from '../../lib/uploads';
import { createJob, type PdfJob, type PreparedPdf } from '../../core/pdf/operations';
import { callSignal, meteredPrepare, multipartValidator } from '../../plugins/processing-routes';
import { consumeExtraCalls } from '../../plugins/rate-limits';
import { finishingGroups } from './finishing';
import { GotenbergForm, invalidForm } from './form';
import { sendOutputs, type NamedFile } from './output';
import { readWebhook, WEBHOOK_HEADERS } from './webhook';

/**
 * A Gotenberg-compatible route as a value (Gotenberg's own `api.Route`): its path, the DocFlow endpoint it is
 * counted and metered as, the files it takes, and a handler that reads the form and returns its outputs. Around the
 * handler: the processing guard (the key as x-api-key or Basic password, plan, limits, metering), the upload with the
 * plan's caps, Gotenberg's file order, and the answer (one file, a zip, or JSON). With Gotenberg's webhook headers the
 * call is a DocFlow job (answered 204), run later through the same route, its end told in Gotenberg's shape.
 */

export interface GotenbergContext {
  request: FastifyRequest;
  form: GotenbergForm;
  /** The uploaded files in Gotenberg's order: by name, numbers first (1_a.pdf, 2_b.pdf, 10_c.pdf). */
  files: UploadedFile[];
  job: PdfJob;
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
  };
  handler(ctx: GotenbergContext): Promise<NamedFile[] | { json: unknown }>;
}

/** Without a key context (never in production: the guard sets it) this bound applies. */
const FALLBACK_MAX_FILE = 50 * 1_048_576;

/** One usage event per file, metered as the DocFlow endpoint: what the limits counted, the analytics show. */
function meterPerFile(request: FastifyRequest, meterAs: GotenbergRouteSpec['meterAs'], files: UploadedFile[]): void {
  if (!request.apiKeyState) return;
  request.apiKeyState.stages = files.map((f) => ({
    endpoint: meterAs.endpoint,
    group: meterAs.group,
    statusCode: null,
    errorCode: null,
    durationMs: null,
    bytesIn: f.size,
    bytesOut: null,
    pages: null,
  }));
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

export function gotenbergRoute(app: FastifyInstance, spec: GotenbergRouteSpec): void {
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
        '; merging several outputs, split, flatten, metadata and encryption fields also need the `pdf` group.',
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
        })
        .catchall(z.string()),
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // Checked before the upload is read, as Gotenberg does: a webhook refused costs no upload.
      const webhook = readWebhook(request);
      if (webhook)
        await app.jobs.allowWebhook(request, [
          { name: WEBHOOK_HEADERS.url, url: webhook.url },
          { name: WEBHOOK_HEADERS.errorUrl, url: webhook.format.errorUrl },
        ]);
      const limits = request.apiKey?.limits;
      const upload = await receiveUpload(request, {
        maxFileSize: limits?.maxFileSize ?? FALLBACK_MAX_FILE,
        maxFiles: spec.files.max,
        fileFields: ['files'],
      });
      request.usage.bytesIn = upload.files.reduce((n, f) => n + f.size, 0);
      const files = [...upload.files].sort((a, b) => byName.compare(a.filename, b.filename));
      const { extensions } = spec.files;
      if (extensions) {
        const other = files.find((f) => !extensions.includes(path.extname(f.filename).toLowerCase()));
        if (other)
          throw invalidForm(
            `form file '${other.filename}' has an extension this route does not take (${extensions.join(', ')})`,
          );
      }
      if (files.length < spec.files.min)
        throw invalidForm(
          `no form file found for extensions: [${(extensions ?? ['any']).join(' ')}] (send at least ${spec.files.min} in 'files')`,
        );
      // What the call will do, before any work and before it is stored as a job: the groups its finishing draws
      // on, and one call per file where the DocFlow endpoint takes one (a job's run was counted at its admission).
      await app.requireGroups(request, reply, finishingGroups(upload.fields, files.length));
      const calls = spec.files.perFile ? files.length : 1;
      if (!request.jobRun) await consumeExtraCalls(app.rateLimits, request, reply, calls - 1);
      if (calls > 1) meterPerFile(request, spec.meterAs, files);
      // The files are checked now; the form when the job runs (its problems go to the error URL, as in Gotenberg).
      if (webhook && !request.jobRun) return app.jobs.admit(request, reply, upload.files, upload.fields, { webhook });
      // An API node runs no processing: a worker runs the call, answered here as it answered there.
      if (!request.jobRun && app.jobs.remoteOnly)
        return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      const job = await createJob(app.engines, await request.workspace(), {
        signal: callSignal(request, reply),
        maxPages: limits?.maxPagesPerPdf ?? null,
        render: request.apiKey?.processing,
      });
      const prepare = meteredPrepare(request, job);
      const ctx: GotenbergContext = {
        request,
        form: new GotenbergForm(upload.fields),
        files,
        job,
        prepare: (file) => prepare(file, { label: `'${file.filename}'` }),
      };
      const result = await spec.handler(ctx);
      if (Array.isArray(result)) return sendOutputs(request, reply, result);
      return reply.type('application/json').send(result.json);
    },
  });
}
