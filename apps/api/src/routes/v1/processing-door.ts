import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZAsyncFields, ZAsyncJsonFields, ZErrorResponse, ZJobAdmittedResponse, ZUploadFile } from '@docflow/contracts';
import {
  checkCall,
  runEndpoint,
  type AdmittedCall,
  type CallMeter,
  type EndpointCall,
  type ProcessingEndpoint,
} from '../../endpoints/processing-endpoint';
import { sendOutcome } from '../../lib/send-result';
import { FALLBACK_MAX_FILE_SIZE, receiveUpload } from '../../lib/uploads';
import { meterRequest } from '../../plugins/usage-metering';
import { endpointJobDoor } from '../../plugins/job-call';
import { consumeExtraCalls } from '../../plugins/rate-limits';
import { multipartValidator, requestSignal } from '../../plugins/request-signal';

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

/**
 * A call of `endpoint` checked as it says (fields, file counts: a 400/422 naming what is wrong) and its extra calls
 * counted (a pipeline's stages), once, before any work and before it is stored as a job: whatever the door.
 */
export async function admitCall<F extends z.ZodObject>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: ProcessingEndpoint<F>,
  upload: EndpointCall,
): Promise<AdmittedCall<z.output<F>>> {
  const call = checkCall(endpoint, upload);
  const allowed = request.apiKey?.allowedEndpoints ?? [];
  const admitted = await endpoint.admit?.({ fields: call.fields, extras: call.extras, allowed });
  if (admitted?.extraCalls) await consumeExtraCalls(app.rateLimits, request, reply, admitted.extraCalls);
  return call;
}

/**
 * The v1 HTTP door of a processing endpoint: the guard (key, plan, limits, meter), the documentation schema, the
 * upload within the plan's caps, the call checked, then either stored as a job (async, or an API node's call a
 * worker runs) or run here and answered. The endpoint is also listed in `app.endpoints`, where a job's run finds it.
 */
export function registerProcessingRoute<F extends z.ZodObject>(
  app: FastifyInstance,
  endpoint: ProcessingEndpoint<F>,
): void {
  const spec = endpoint.files;
  const group = endpoint.group;
  const route = `/api/v1${endpoint.path}`;
  if (!route.startsWith(`${app.prefix}/`)) throw new Error(`${route} is not under ${app.prefix}`);
  const url = route.slice(app.prefix.length);
  const fileDoc =
    spec.field === 'files'
      ? { files: z.array(ZUploadFile).min(spec.min).max(spec.max).describe(spec.description) }
      : { [spec.field]: ZUploadFile.describe(spec.description) };
  const extraDoc = Object.fromEntries(
    Object.entries(spec.extra ?? {}).map(([k, d]) => [k, ZUploadFile.optional().describe(d)]),
  );
  const body = endpoint.fields.extend({ ...fileDoc, ...extraDoc, ...ZAsyncFields.shape });
  app.endpoints.set(route, endpoint as unknown as ProcessingEndpoint);
  app.jobDoors.set(route, endpointJobDoor(app, endpoint as unknown as ProcessingEndpoint));

  /** The call run on this node and answered. */
  async function runHere(request: FastifyRequest, reply: FastifyReply, call: AdmittedCall<z.output<F>>) {
    const key = request.apiKey;
    const meter: CallMeter = {};
    try {
      const outcome = await runEndpoint(endpoint, call, {
        engines: app.engines,
        workspace: () => request.workspace(),
        caller: key ? { userId: key.userId, ownKey: key.madeByOwner } : null,
        signal: requestSignal(reply),
        maxPagesPerPdf: key?.limits.maxPagesPerPdf ?? null,
        render: key?.processing,
        allowed: key?.allowedEndpoints ?? [],
        meter,
      });
      return await sendOutcome(request, reply, outcome);
    } finally {
      meterRequest(request, meter);
    }
  }

  const docs = {
    tags: [group],
    summary: endpoint.summary,
    description: endpoint.description,
    security: [{ apiKey: [] }],
  };

  if (endpoint.body === 'json') {
    // The body is the fields, validated against their schema before the handler (a 400 naming the field).
    app.route({
      method: 'POST',
      url,
      ...app.processingGuard(group),
      schema: {
        ...docs,
        body: endpoint.fields.extend(ZAsyncJsonFields.shape),
        response: { 200: endpoint.response, 202: ZJobAdmittedResponse, ...errors },
      },
      handler: async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        if (app.jobs.wanted(request, body)) return app.jobs.admitJson(request, reply, body);
        if (app.jobs.remoteOnly) return app.jobs.admitJson(request, reply, body, { wait: true });
        const { async: _async, callbackUrl: _callback, ...fields } = body;
        return runHere(request, reply, { fields: fields as z.output<F>, files: [], extras: {} });
      },
    });
    return;
  }

  const multipartRoute: RouteOptions = {
    method: 'POST',
    url,
    ...app.processingGuard(group),
    validatorCompiler: multipartValidator,
    schema: {
      ...docs,
      consumes: ['multipart/form-data'],
      body,
      response: { 200: endpoint.response, 202: ZJobAdmittedResponse, ...errors },
    },
    handler: async (request, reply) => {
      const key = request.apiKey;
      const extraFields = Object.keys(spec.extra ?? {});
      const upload = await receiveUpload(request, {
        maxFileSize: key?.limits.maxFileSize ?? FALLBACK_MAX_FILE_SIZE,
        maxFiles: spec.max + extraFields.length,
        countedField: spec.field,
        fileFields:
          spec.field === 'files'
            ? ['files', 'file', ...extraFields]
            : [spec.field, ...(spec.also ?? []), ...extraFields],
      });
      request.usage.bytesIn = upload.files.reduce((n, f) => n + f.size, 0);
      const call = await admitCall(app, request, reply, endpoint, upload);
      // Checked like the synchronous call (fields, file counts), then stored and answered at once.
      if (app.jobs.wanted(request, upload.fields)) return app.jobs.admit(request, reply, upload.files, upload.fields);
      // An API node runs no processing: the call is a job a worker runs, answered here when it is done.
      if (app.jobs.remoteOnly) return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      return runHere(request, reply, call);
    },
  };
  app.route(multipartRoute);
}
