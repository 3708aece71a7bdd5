import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { Limits, type LimitDecision, type LimitReceipt } from '../services/limits/index';
import { monthUsedBySubject } from '../services/limits/month-usage';
import { limitRefusal } from '../services/limits/refusal';
import type { ApiKeyContext } from './processing-guard';

export interface RateLimitsOptions {
  /** Redis URL for the limiters (default config.REDIS_URL); null forces memory. */
  redisUrl?: string | null;
  redisPrefix?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: Limits;
  }
}

/**
 * Counts a call against its limits after the plan gate: 429 when a window refuses it (with the RateLimit-* headers
 * either way). Its onSend hook gives back the calls the server failed.
 */
export function enforceRateLimits(limits: Limits): onRequestHookHandler {
  return async (request, reply) => {
    const state = request.apiKeyState!;
    const ctx = state.context!;
    const decision = await limits.consume(state.rec!.limitSubject, ctx.limits);
    state.decision = decision;
    reply.headers(decision.headers);
    if (!decision.allowed) throw limitRefusal(decision, ctx.limits);
    state.receipts.push(decision.receipt!);
    state.counted = true;
    request.apiKey = ctx;
  };
}

/**
 * Count `n` more calls for this request (a pipeline: one per stage beyond the first) before any work: all or none.
 * A window that refuses one gives back those taken here and answers 429 as the guard would; the call itself stays
 * counted, as any refused call does. Taken calls are given back with the call when the server fails it.
 */
export async function consumeExtraCalls(
  limits: Limits,
  request: FastifyRequest,
  reply: FastifyReply,
  n: number,
): Promise<void> {
  const state = request.apiKeyState;
  const ctx = request.apiKey;
  if (!state?.rec || !ctx || n <= 0) return;
  const taken: LimitReceipt[] = [];
  for (let i = 0; i < n; i++) {
    const decision = await limits.consume(state.rec.limitSubject, ctx.limits);
    if (!decision.allowed) {
      let after: LimitDecision | null = null;
      for (const r of taken) after = await limits.refund(r, ctx.limits).catch(() => null);
      const refusal = limitRefusal(decision, ctx.limits);
      reply.headers({ ...decision.headers, ...(after?.headers ?? {}) });
      throw refusal;
    }
    taken.push(decision.receipt!);
    state.decision = decision;
    reply.headers(decision.headers);
  }
  state.receipts.push(...taken);
}

/**
 * A call the server failed (503 queue full, 504 timeout, any 5xx) gave the caller nothing: its quota goes back before
 * the answer leaves, so the answer's headers and the next call already see it. A 4xx still counts: the client caused
 * it and it used the server, and free failures would let a client probe without limit (passwords of a protected PDF,
 * where the size and page limits lie, which keys exist).
 */
export function refundServerFailures(limits: Limits): onSendHookHandler {
  return async (request, reply, payload) => {
    const state = request.apiKeyState;
    if (state?.counted && (state.callStatus ?? reply.statusCode) >= 500 && request.apiKey) {
      state.refunded = true;
      const after = await giveBack(limits, state.receipts, request.apiKey.limits);
      if (after) reply.headers(after.headers);
    }
    return payload;
  };
}

/** The calls of `receipts` given back (a server failure, whatever the door); the last decision tells the headers. */
export async function giveBack(
  limits: Limits,
  receipts: readonly LimitReceipt[],
  keyLimits: ApiKeyContext['limits'],
): Promise<LimitDecision | null> {
  let after: LimitDecision | null = null;
  for (const receipt of receipts) after = (await limits.refund(receipt, keyLimits).catch(() => null)) ?? after;
  return after;
}

async function plugin(app: FastifyInstance, opts: RateLimitsOptions) {
  const redisUrl = opts.redisUrl === null ? undefined : (opts.redisUrl ?? app.config.REDIS_URL);
  let lastRedisLog = 0;
  const limits = new Limits({
    redisUrl,
    prefix: opts.redisPrefix,
    lease: app.config.REDIS_LIMIT_LEASE,
    monthUsedBefore: (subject, monthStart) => monthUsedBySubject(app.db, subject, monthStart),
    onRedisError: (err) => {
      // Throttled: a Redis outage would otherwise log on every call.
      if (Date.now() - lastRedisLog > 10_000) {
        lastRedisLog = Date.now();
        app.log.warn({ err }, 'rate-limit store (Redis) unavailable: the in-memory insurance limiter answers');
      }
    },
  });
  app.decorate('rateLimits', limits);
  app.onShutdown(() => limits.close());
}

/** The limits of API keys (services/limits), in Redis when configured: `app.rateLimits`. */
export const rateLimits = fp(plugin, { name: 'rate-limits' });
