import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TJobAdmitted } from '@docflow/contracts';
import type { UploadedFile } from '../lib/uploads';
import type { GotenbergWebhookFormat, JobInput, JobResult, JobRow } from '../services/jobs/types';
import { findKeyById } from '../services/api-keys/lookup';
import { startRefusal } from '../services/api-keys/key-admission';
import { cancelJob, deleteJob, findJob, insertJob } from '../services/jobs/repository';
import { contentDisposition } from '../lib/send-result';
import { requestSignal } from './request-signal';
import { JobRunner, type JobExecution } from '../services/jobs/runner';
import { JSON_BODY } from './job-call';
import type { JobStore } from '../services/jobs/store';
import { createJobStore } from '../services/jobs/store-factory';
import { WebhookDispatcher } from '../services/webhooks/dispatcher';
import { checkUrl } from '../core/net/public-address';
import { EngineError } from '../core/errors';
import { AppError } from '../lib/app-error';

/** The notification channel of jobs' ends (PostgreSQL NOTIFY: API nodes hear the workers' ends). */
const JOB_ENDED = 'docflow_job_ended';
/** A waiting API node looks at its job this often anyway, in case a notification was lost with a connection. */
const ENDED_FALLBACK_MS = 5_000;

export interface Jobs {
  store: JobStore;
  runner: JobRunner;
  webhooks: WebhookDispatcher;
  /** Whether a processing call asks to run as a job (`async=true`, in the query or the form). */
  wanted(request: FastifyRequest, fields: Record<string, unknown>): boolean;
  /**
   * Stores the received call as a job and answers 202 with where to follow it; `wait`: a synchronous call on an API
   * node, answered with the job's result once a worker has run it; `webhook`: a Gotenberg client's webhook (already
   * allowed), told in Gotenberg's shape, answered 204 as Gotenberg does.
   */
  /**
   * Whether this call may ask for a webhook to these URLs (named by the field or header that gave them): the key's
   * plan includes the `webhook` group, and each URL obeys the rules of URL conversion (checked again at delivery).
   */
  allowWebhook(request: FastifyRequest, urls: Array<{ name: string; url: string }>): Promise<void>;
  admit(
    request: FastifyRequest,
    reply: FastifyReply,
    files: UploadedFile[],
    fields: Record<string, string>,
    opts?: { wait?: boolean; webhook?: { url: string; format: GotenbergWebhookFormat } },
  ): Promise<FastifyReply>;
  /** The same for a call whose input is its JSON body (`async` and `callbackUrl` are read from it, then dropped). */
  admitJson(
    request: FastifyRequest,
    reply: FastifyReply,
    body: Record<string, unknown>,
    opts?: { wait?: boolean },
  ): Promise<FastifyReply>;
  /**
   * A call of another door stored as a job of `route` (a v1 processing route, whose job door runs it), its files or
   * JSON body as its input, its files answered as files; the job's id. The guard counted the call before.
   */
  enqueue(
    request: FastifyRequest,
    call: { route: string; fields: Record<string, string>; files: UploadedFile[]; body?: Record<string, unknown> },
  ): Promise<string>;
  /** The job once it ended, or as it is after `ms` (or when `left` aborts); null when it is gone. */
  ended(id: string, ms: number, left: AbortSignal): Promise<JobRow | null>;
  /** This node runs no processing (PROCESSING_MODE=api): every upload call goes to a worker. */
  remoteOnly: boolean;
  /** A job's stored answer sent as it was given (its status, type and file name; not through the serializer). */
  sendAnswer(reply: FastifyReply, job: JobRow & { result: JobResult }): Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

export interface JobsOptions {
  concurrency?: number;
  ttlHours?: number;
}

/** The request headers that shape a call's answer, kept with its job for its run. */
const ANSWER_HEADERS = ['accept', 'gotenberg-output-filename', 'gotenberg-trace'];

const answerHeaders = (request: FastifyRequest): Record<string, string> =>
  Object.fromEntries(
    ANSWER_HEADERS.flatMap((h) => {
      const v = request.headers[h];
      return typeof v === 'string' ? [[h, v]] : [];
    }),
  );

const truthy = (v: unknown) => v === 'true' || v === '1' || v === true;

async function plugin(app: FastifyInstance, opts: JobsOptions) {
  const store = await createJobStore(app.config.storage);

  const execute: JobExecution = async (job, run) => {
    const rec = job.keyId ? await findKeyById(app.db, job.keyId) : null;
    // The gate again, as the job starts: a key or account that may no longer call runs nothing (its job is cancelled).
    if (!rec) return { refused: { code: 'INVALID_API_KEY', message: 'The API key that created this job was deleted' } };
    const refusal = startRefusal(rec, job.endpointGroup);
    if (refusal) return { refused: { code: refusal.code, message: refusal.message } };
    const door = app.jobDoors.get(job.route);
    if (door) return door(job, run, rec);
    // Every route that takes jobs registered its door (routes/v1/processing-door.ts, routes/gotenberg/route.ts).
    throw new Error(`no job door for ${job.route}`);
  };

  const webhooks = new WebhookDispatcher(
    app.db,
    {
      maxAttempts: app.config.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: app.config.WEBHOOK_RETRY_BASE_MS,
      urlRules: app.config.outbound,
      publicUrl: app.config.publicUrl,
      store,
    },
    app.log,
  );
  const runner = new JobRunner(
    app.db,
    store,
    execute,
    {
      concurrency: opts.concurrency ?? app.config.JOB_CONCURRENCY,
      ttlMs: (opts.ttlHours ?? app.config.JOB_RESULT_TTL_HOURS) * 3_600_000,
      soleNode: app.database.driver === 'pglite',
      stallMs: app.config.JOB_STALL_SECONDS * 1000,
      heartbeatMs: Math.min(10_000, (app.config.JOB_STALL_SECONDS * 1000) / 4),
      onEnded: (id) => {
        webhooks.kick();
        void app.database.notify(JOB_ENDED, id).catch(() => undefined);
      },
      // With Redis, jobs go through BullMQ (API nodes add, workers take); without it the table is the queue. BullMQ
      // (200-odd modules) is loaded only then: without Redis it cost start time and heap for nothing.
      queue: app.config.REDIS_URL
        ? new (await import('../services/jobs/bull-queue')).BullJobQueue(app.config.REDIS_URL, app.log)
        : undefined,
    },
    app.log,
  );

  // Every end of a job is told on JOB_ENDED: an API node answering a synchronous call a worker runs waits for it.
  const waiting = new Map<string, Set<() => void>>();
  let listening: Promise<() => Promise<void>> | null = null;
  const hearEnds = () =>
    (listening ??= app.database.listen(JOB_ENDED, (id) => {
      for (const wake of waiting.get(id) ?? []) wake();
    }));
  /** Resolves when the job's end is told, `ms` pass, or the client leaves; `stop` lets go of it earlier. */
  const endOf = (id: string, ms: number, left: AbortSignal) => {
    const set = waiting.get(id) ?? new Set();
    waiting.set(id, set);
    let stop = () => undefined as void;
    const ended = new Promise<void>((resolve) => {
      stop = () => {
        clearTimeout(timer);
        left.removeEventListener('abort', stop);
        set.delete(stop);
        if (!set.size && waiting.get(id) === set) waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(stop, ms);
      left.addEventListener('abort', stop);
      set.add(stop);
    });
    return { ended, stop };
  };

  /** A stored input of a job being admitted: what the job row says of it, and its bytes. */
  interface Staged {
    input: JobInput;
    open(): Readable;
  }

  const allowWebhook: Jobs['allowWebhook'] = async (request, urls) => {
    const state = request.apiKeyState!;
    const [first] = urls;
    if (!first) return;
    if (!state.context!.allowedEndpoints.includes('webhook'))
      throw new AppError(
        'ENDPOINT_NOT_ALLOWED',
        `${first.name}: webhooks are not included in ${state.rec!.customLimits ? 'this custom key' : `the ${state.rec!.plan.displayName} plan`}`,
        { details: { group: 'webhook', field: first.name } },
      );
    // The same rules as URL conversion, checked now (and again at every delivery); the refusal names what gave it.
    for (const { name, url } of urls) {
      try {
        await checkUrl(url, app.config.outbound);
      } catch (err) {
        if (!(err instanceof EngineError) || !err.message.startsWith('url:')) throw err;
        throw new EngineError(err.code, `${name}:${err.message.slice('url:'.length)}`, {
          details: { ...(err.details as object), field: name },
        });
      }
    }
  };

  /**
   * The call stored as a job and queued: counted by the guard before, so its receipts go with it (given back by its
   * run if the server fails it) unless the request answers the run itself (`wait`). `route`: the route whose job
   * door runs it, when not the request's own (the MCP door stores calls of the v1 routes).
   */
  const storeCall = async (
    request: FastifyRequest,
    fields: Record<string, string>,
    inputs: Staged[],
    opts: {
      wait?: boolean;
      webhook?: { url: string; format: GotenbergWebhookFormat };
      route?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<string> => {
    const state = request.apiKeyState!;
    const callbackUrl = opts.webhook?.url ?? (fields.callbackUrl?.trim() || null);
    if (callbackUrl && !opts.webhook) await allowWebhook(request, [{ name: 'callbackUrl', url: callbackUrl }]);
    const id = randomUUID();
    let bytesIn = 0;
    for (const [i, f] of inputs.entries()) bytesIn += await store.putInput(id, i, f.open());
    const route = opts.route ?? (request.routeOptions.url ?? request.url.split('?')[0])!;
    // A Gotenberg form is kept whole: its webhook came in headers, and a field it does not take is refused at the run.
    const { async: _async, callbackUrl: _callback, ...own } = fields;
    const kept = opts.webhook ? fields : own;
    try {
      await insertJob(app.db, {
        id,
        userId: state.rec!.userId,
        keyId: state.rec!.keyId,
        endpoint: state.meterAs ?? (route.replace(/^\/api\/v1/, '') || '/'),
        endpointGroup: String(state.group),
        route,
        fields: kept,
        inputs: inputs.map((f) => f.input),
        requestHeaders: opts.headers ?? answerHeaders(request),
        bytesIn,
        callbackUrl,
        webhookFormat: opts.webhook?.format ?? null,
        sync: opts.wait === true,
        limitReceipts: opts.wait ? [] : state.receipts,
      });
    } catch (err) {
      await store.remove(id);
      throw err;
    }
    // The job's own run writes the call's one usage event (with its pages and outcome), not this answer.
    state.jobAdmitted = true;
    await runner.enqueue(id);
    return id;
  };

  const admitCall = async (
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Record<string, string>,
    inputs: Staged[],
    opts: { wait?: boolean; webhook?: { url: string; format: GotenbergWebhookFormat } } = {},
  ): Promise<FastifyReply> => {
    const id = await storeCall(request, fields, inputs, opts);
    if (opts.wait) return answerWhenDone(id, request, reply);
    if (opts.webhook) return reply.code(204).send();
    const location = `/api/v1/jobs/${id}`;
    const data: TJobAdmitted = { jobId: id, status: 'queued', location };
    return reply.code(202).header('Location', location).send({ success: true, data });
  };

  const staged = (files: UploadedFile[]): Staged[] =>
    files.map((f) => ({
      input: { field: f.field, fileName: f.filename, mimeType: f.mimetype, size: f.size },
      open: () => createReadStream(f.path),
    }));
  const stagedBody = (call: Record<string, unknown>): Staged[] => {
    const bytes = Buffer.from(JSON.stringify(call));
    return [
      {
        input: { field: JSON_BODY, fileName: 'body.json', mimeType: 'application/json', size: bytes.length },
        open: () => Readable.from([bytes]),
      },
    ];
  };

  const admit: Jobs['admit'] = (request, reply, files, fields, opts) =>
    admitCall(request, reply, fields, staged(files), opts);

  const admitJson: Jobs['admitJson'] = (request, reply, body, opts) => {
    const { async: _async, callbackUrl, ...call } = body;
    return admitCall(request, reply, typeof callbackUrl === 'string' ? { callbackUrl } : {}, stagedBody(call), opts);
  };

  const enqueue: Jobs['enqueue'] = (request, call) =>
    storeCall(request, call.fields, call.body ? stagedBody(call.body) : staged(call.files), {
      route: call.route,
      headers: {},
    });

  /**
   * The job once it ended (or as it is when `ms` pass or `left` aborts). Woken by the worker's notification of the
   * end (asked for before each look, so none falls between); the slow look is only a fallback for a notification
   * lost with a connection.
   */
  const jobEnded: Jobs['ended'] = async (id, ms, left) => {
    await hearEnds();
    const until = Date.now() + ms;
    for (;;) {
      const wait = endOf(id, Math.min(ENDED_FALLBACK_MS, Math.max(0, until - Date.now())), left);
      const job = await findJob(app.db, id);
      if (!job || (job.status !== 'queued' && job.status !== 'running') || left.aborted || Date.now() >= until) {
        wait.stop();
        return job;
      }
      await wait.ended;
    }
  };

  /**
   * The synchronous answer of a call a worker ran: the stored answer as it was given, then the job is forgotten. A
   * client that leaves cancels it (its worker stops it at the next heartbeat).
   */
  async function answerWhenDone(id: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const left = requestSignal(reply);
    const job = await jobEnded(id, Infinity, left);
    const forget = async () => {
      await store.remove(id).catch(() => undefined);
      await deleteJob(app.db, id).catch(() => undefined);
    };
    if (left.aborted || !job?.result) {
      await cancelJob(app.db, id, new Date()).catch(() => undefined);
      await forget();
      throw new AppError(left.aborted ? 'CLIENT_CLOSED_REQUEST' : 'INTERNAL_ERROR', 'The call did not complete');
    }
    reply.raw.once('close', () => void forget());
    if (job.result.pages !== null) request.usage.pages = job.result.pages;
    return sendAnswer(reply, { ...job, result: job.result });
  }

  const sendAnswer: Jobs['sendAnswer'] = async (reply, job) => {
    const r = job.result;
    const stream = await store.openResult(job.id);
    reply.code(r.statusCode).type(r.contentType).header('Content-Length', r.size);
    if (r.headers) reply.headers(r.headers);
    if (r.fileName) reply.header('Content-Disposition', contentDisposition(r.fileName));
    return reply.send(stream);
  };

  app.decorate('jobs', {
    store,
    remoteOnly: app.config.PROCESSING_MODE === 'api',
    sendAnswer,
    runner,
    webhooks,
    allowWebhook,
    wanted: (request, fields) =>
      (typeof fields.callbackUrl === 'string' && fields.callbackUrl.trim() !== '') ||
      truthy((request.query as Record<string, unknown> | undefined)?.async) ||
      truthy(fields.async),
    admit,
    admitJson,
    enqueue,
    ended: jobEnded,
  });
  // An API node (PROCESSING_MODE=api) only admits jobs: the workers on the same database run them.
  if (app.config.PROCESSING_MODE !== 'api')
    app.addHook('onReady', async () => {
      await runner.start();
      webhooks.start();
    });
  // An API node hears the ends before it admits a call, so that none ends unheard between admission and the wait.
  if (app.config.PROCESSING_MODE === 'api') app.addHook('onReady', async () => void (await hearEnds()));
  app.addHook('preClose', async () => {
    if (listening) await (await listening.catch(() => null))?.().catch(() => undefined);
    await runner.stop();
    await webhooks.stop();
  });
  app.addHook('onClose', async () => store.close?.());
}

/**
 * Async jobs (`async=true` on any processing route, a Gotenberg webhook): admitted after the key's limits counted the
 * call, stored, and run by a JobRunner, which checks the key again and hands the stored call to its route's job door
 * (plugins/job-call.ts): the endpoint's own run, neither limited nor counted a second time.
 */
export const jobsPlugin = fp(plugin, { name: 'jobs' });
