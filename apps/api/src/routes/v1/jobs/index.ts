import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZErrorResponse,
  ZIdParam,
  ZJobResponse,
  ZJobsQuery,
  ZJobsResponse,
  ZMessageResponse,
  ZWebhookDeliveriesResponse,
  type TErrorCode,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { requestLanguage, type TApiLanguage } from '../../../lib/i18n/language';
import { localiseError } from '../../../lib/i18n/localise-error';
import { text } from 'node:stream/consumers';
import { authenticate } from '../../../plugins/authenticate';
import { newApiKeyState } from '../../../plugins/processing-guard';
import { cancelOrRemove, listOwnJobs, ownJob, type JobReader } from '../../../services/jobs/index';
import { jobView } from '../../../services/jobs/view';
import { deliveriesOf } from '../../../services/webhooks/deliveries';
import { resendWebhook } from '../../../services/webhooks/resend';
import { deliveryView } from '../../../services/webhooks/view';

const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** The language a job's error is read in (Accept-Language); the answer says it varies with it. */
function readerLanguage(request: FastifyRequest, reply: FastifyReply): TApiLanguage | undefined {
  const lang = requestLanguage(request.headers['accept-language']);
  reply.header('Vary', 'Accept-Language');
  if (lang) reply.header('Content-Language', lang);
  return lang;
}

export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Jobs are read from the dashboard (access token) or with an API key: one the user made reads all their jobs, one
   * an admin made for them only the jobs it made (services/jobs/index.ts, JobReader). Reading them is not a
   * processing call: it is neither limited nor metered, but unknown keys are still counted.
   */
  async function ownerOf(request: FastifyRequest, reply: FastifyReply): Promise<JobReader> {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    if (request.headers['x-api-key'] || (bearer && !JWT.test(bearer))) {
      const state = (request.apiKeyState = newApiKeyState('*'));
      await app.apiKeyAuth.authenticate.call(app, request, reply, () => undefined);
      const rec = state.rec!;
      return { userId: rec.userId, onlyKeyId: rec.madeByOwner ? null : rec.keyId };
    }
    await authenticate.call(app, request, reply);
    return { userId: request.authUser!.id, onlyKeyId: null };
  }
  const security: Array<Record<string, string[]>> = [{ apiKey: [] }, { accessToken: [] }];
  const common = { tags: ['jobs'], security };
  const ttlMs = app.config.JOB_RESULT_TTL_HOURS * 3_600_000;
  const resendLimits = {
    perJobPerHour: app.config.WEBHOOK_RESENDS_PER_JOB_HOUR,
    perAccountPerHour: app.config.WEBHOOK_RESENDS_PER_ACCOUNT_HOUR,
  };

  app.get(
    '/',
    {
      schema: {
        ...common,
        summary: 'List my jobs, newest first',
        querystring: ZJobsQuery,
        response: { 200: ZJobsResponse, 401: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const rows = await listOwnJobs(app.db, await ownerOf(request, reply), request.query);
      const lang = readerLanguage(request, reply);
      return { success: true as const, data: { jobs: rows.map((r) => jobView(r, undefined, lang)) } };
    },
  );
  app.get(
    '/:id',
    {
      schema: {
        ...common,
        summary: "A job's status, progress, timings and error",
        params: ZIdParam,
        response: { 200: ZJobResponse, 401: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const job = await ownJob(app.db, await ownerOf(request, reply), request.params.id);
      return { success: true as const, data: jobView(job, undefined, readerLanguage(request, reply)) };
    },
  );
  app.get(
    '/:id/result',
    {
      schema: {
        ...common,
        summary: "A job's answer: the file (or JSON) the synchronous call would have answered",
        description:
          'Succeeded: the result with its Content-Type and Content-Disposition. Failed: the error answer the call gave, with its status. Not ended yet: 409 JOB_NOT_FINISHED.',
        params: ZIdParam,
        response: { 401: ZErrorResponse, 404: ZErrorResponse, 409: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const job = await ownJob(app.db, await ownerOf(request, reply), request.params.id);
      const r = job.result;
      if (!r || (job.status !== 'succeeded' && job.status !== 'failed'))
        throw new AppError('JOB_NOT_FINISHED', `Job ${job.id} is ${job.status}: no result`, {
          details: { status: job.status, progress: job.progress },
        });
      const lang = job.status === 'failed' ? readerLanguage(request, reply) : undefined;
      if (lang && r.contentType.startsWith('application/json')) {
        // The stored error answer (small JSON), its words in the reader's language; code, status and details kept.
        const body = JSON.parse(await text(await app.jobs.store.openResult(job.id))) as Record<string, unknown>;
        if (typeof body.code === 'string' && typeof body.error === 'string') {
          const l = localiseError(new AppError(body.code as TErrorCode, body.error, { details: body.details }), lang);
          return (reply as unknown as FastifyReply)
            .code(r.statusCode)
            .send({ ...body, error: l.message, ...(l.details === undefined ? {} : { details: l.details }) });
        }
      }
      return app.jobs.sendAnswer(reply as unknown as FastifyReply, { ...job, result: r });
    },
  );
  app.delete(
    '/:id',
    {
      schema: {
        ...common,
        summary: 'Cancel a queued or running job (its tools are stopped), or delete an ended one with its files',
        params: ZIdParam,
        response: { 200: ZMessageResponse, 401: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const job = await ownJob(app.db, await ownerOf(request, reply), request.params.id);
      const done = await cancelOrRemove({ db: app.db, store: app.jobs.store, runner: app.jobs.runner, ttlMs }, job);
      return {
        success: true as const,
        message: done === 'cancelled' ? `Job ${job.id} cancelled` : `Job ${job.id} and its files deleted`,
      };
    },
  );
  app.get(
    '/:id/deliveries',
    {
      schema: {
        ...common,
        summary: "Every delivery attempt of a job's webhook: status, latency, answer code",
        params: ZIdParam,
        response: { 200: ZWebhookDeliveriesResponse, 401: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const job = await ownJob(app.db, await ownerOf(request, reply), request.params.id);
      return { success: true as const, data: { deliveries: (await deliveriesOf(app.db, [job.id])).map(deliveryView) } };
    },
  );
  app.post(
    '/:id/webhook/resend',
    {
      schema: {
        ...common,
        summary: "Send an ended job's webhook again (a fresh set of attempts)",
        description:
          'At most WEBHOOK_RESENDS_PER_JOB_HOUR resends of one job (default 5) and WEBHOOK_RESENDS_PER_ACCOUNT_HOUR of ' +
          "all the account's jobs (default 60) in a rolling hour: 429 WEBHOOK_RESEND_LIMITED with Retry-After beyond. " +
          "The job's webhook.resends counts them.",
        params: ZIdParam,
        response: {
          200: ZMessageResponse,
          401: ZErrorResponse,
          404: ZErrorResponse,
          409: ZErrorResponse,
          429: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const job = await ownJob(app.db, await ownerOf(request, reply), request.params.id);
      if (!job.callbackUrl) throw new AppError('CONFLICT', `Job ${job.id} has no callbackUrl`);
      if (!(await resendWebhook(app.db, job, resendLimits)))
        throw new AppError('CONFLICT', `Job ${job.id} is ${job.status}: its webhook is sent when it ends`);
      app.jobs.webhooks.kick();
      return { success: true as const, message: `Webhook of job ${job.id} queued again` };
    },
  );
};
