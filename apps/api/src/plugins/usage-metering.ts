import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onErrorHookHandler, onResponseHookHandler } from 'fastify';
import { toAppError } from './error-handler';
import { ANY_GROUP } from './processing-guard';
import type { CallMeter } from '../endpoints/processing-endpoint';
import { callUsageEvents } from '../services/usage/call-events';
import { UsageMeter } from '../services/usage/meter';

export interface UsageMeteringOptions {
  /** Usage writer batching (default every 1000 ms or 500 events). */
  meterFlushIntervalMs?: number;
  meterMaxBatch?: number;
}

export interface UsageMetering {
  meter: UsageMeter;
  /** onError: remember the error code of a failed call for its usage event. */
  noteError: onErrorHookHandler;
  /** onResponse: one usage event per call whose key was identified. */
  record: onResponseHookHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    usageMetering: UsageMetering;
  }
}

/** What a run told its meter, handed to this request's usage event (pages, bytes out, stages metered apart). */
export function meterRequest(request: FastifyRequest, meter: CallMeter): void {
  if (meter.pages !== undefined) request.usage.pages = meter.pages;
  if (meter.bytesOut !== undefined) request.usage.bytesOut = meter.bytesOut;
  if (meter.stages && request.apiKeyState) request.apiKeyState.stages = meter.stages;
}

async function plugin(app: FastifyInstance, opts: UsageMeteringOptions) {
  const meter = new UsageMeter(app.db, {
    flushIntervalMs: opts.meterFlushIntervalMs,
    maxBatch: opts.meterMaxBatch,
    log: app.log,
  });
  // preClose: write the buffered usage while the database is surely open (onClose hooks run last-added first, and
  // server.ts closes the database in one added after this); onShutdown writes what in-flight requests add after it.
  app.addHook('preClose', async () => {
    await meter.flush().catch(() => undefined);
  });
  app.onShutdown(() => meter.close());

  const noteError: onErrorHookHandler = async (request, _reply, error) => {
    if (request.apiKeyState) request.apiKeyState.errorCode = toAppError(error).code;
  };

  const record: onResponseHookHandler = async (request, reply) => {
    const state = request.apiKeyState;
    if (!state?.rec) return; // no key identified: nobody to meter against
    if (state.jobAdmitted) return; // the job's run records the call
    const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const usage = request.usage ?? { bytesIn: 0, bytesOut: 0 };
    const sentLength = Number(reply.getHeader('content-length') ?? 0);
    const counted = state.counted && !state.refunded; // refunded calls stay as errors, not as billable calls
    const statusCode = state.callStatus ?? reply.statusCode;
    for (const event of callUsageEvents({
      keyId: state.rec.keyId,
      userId: state.rec.userId,
      endpoint: state.meterAs ?? (route.replace(/^\/api\/v1/, '') || '/'),
      group: state.group === ANY_GROUP ? 'system' : state.group,
      method: request.method,
      statusCode,
      durationMs: reply.elapsedTime,
      bytesIn: usage.bytesIn || Number(request.headers['content-length'] ?? 0) || 0,
      bytesOut: usage.bytesOut || (Number.isFinite(sentLength) ? sentLength : 0),
      pages: usage.pages ?? null,
      errorCode: statusCode >= 400 ? state.errorCode : null,
      counted,
      requestId: String(request.id),
      // A pipeline, a Gotenberg call of several files: each stage is metered as its endpoint (and counted, as it was
      // against the limits).
      stages: state.stages ?? undefined,
    }))
      meter.record(event);
  };

  app.decorate('usageMetering', { meter, noteError, record });
}

/** Usage events of processing calls, written in batches off the request path (services/usage/meter.ts). */
export const usageMetering = fp(plugin, { name: 'usage-metering' });
