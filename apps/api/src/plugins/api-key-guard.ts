import fp from 'fastify-plugin';
import type { FastifyInstance, onRequestHookHandler, onResponseHookHandler, onSendHookHandler } from 'fastify';
import { apiKeyAuth, type ApiKeyAuthOptions } from './api-key-auth';
import { planGate } from './plan-gate';
import { enforceRateLimits, rateLimits, refundServerFailures, type RateLimitsOptions } from './rate-limits';
import { usageMetering, type UsageMeteringOptions } from './usage-metering';
import {
  ANY_GROUP,
  newApiKeyState,
  type DeferredGuard,
  type GuardGroup,
  type ProcessingGuardHooks,
  type ProcessingGuardOptions,
} from './processing-guard';
import type { KeyCache } from '../services/api-keys/key-cache';
import { KeyEviction } from '../services/api-keys/key-eviction';
import type { UnknownKeyThrottle } from '../services/api-keys/unknown-key-throttle';
import type { Limits } from '../services/limits/index';
import type { UsageMeter } from '../services/usage/meter';
import { createUsageReminders } from '../services/usage/reminders';

export type ApiKeyGuardOptions = Omit<ApiKeyAuthOptions, 'limits'> & RateLimitsOptions & UsageMeteringOptions;

/** The guard's parts, for the routes that act on them (evict a changed key, flush the meter) and for tests. */
export interface ApiKeyGuard {
  cache: KeyCache;
  /** Forget keys on every node (services/api-keys/key-eviction.ts): use this, not `cache`, when a key changes. */
  eviction: KeyEviction;
  unknownKeys: UnknownKeyThrottle;
  limits: Limits;
  meter: UsageMeter;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyGuard: ApiKeyGuard;
  }
}

async function plugin(app: FastifyInstance, opts: ApiKeyGuardOptions) {
  await app.register(rateLimits, { redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix });
  await app.register(apiKeyAuth, { ...opts, limits: app.rateLimits });
  await app.register(planGate);
  await app.register(usageMetering, opts);
  const { cache, unknownKeys, authenticate } = app.apiKeyAuth;
  const { meter, noteError, record } = app.usageMetering;
  const eviction = new KeyEviction(cache, app.rateLimits.redis, opts.redisPrefix);
  app.addHook('onClose', async () => eviction.close());
  app.decorate('apiKeyGuard', { cache, eviction, unknownKeys, limits: app.rateLimits, meter });
  app.decorateRequest('apiKeyState', null);

  const enforce = enforceRateLimits(app.rateLimits);
  const refund = refundServerFailures(app.rateLimits);
  const remind = createUsageReminders(app.db);
  const afterCounted: onRequestHookHandler = async (request) => {
    const state = request.apiKeyState!;
    remind(state.rec!, state.decision!, state.context!.limits.maxRequestsPerMonth);
  };
  const timing: onSendHookHandler = async (_request, reply, payload) => {
    reply.header('X-Processing-Time-Ms', reply.elapsedTime.toFixed(1));
    return payload;
  };

  /** The steps that let a call of `group` through once its key is known: plan, limits, reminders. */
  const admitting = (group: GuardGroup): onRequestHookHandler[] => [app.planGate(group), enforce, afterCounted];

  app.decorate('processingGuard', (group: GuardGroup, opts: ProcessingGuardOptions = {}): ProcessingGuardHooks => {
    const begin: onRequestHookHandler = async (request) => {
      request.apiKeyState = newApiKeyState(group, opts);
    };
    return {
      onRequest: [begin, authenticate, app.maintenanceGate, ...admitting(group)],
      onSend: [timing, refund],
      onError: [noteError],
      onResponse: [record],
    };
  });

  app.decorate('deferredGuard', (): DeferredGuard => {
    // Until a call is presented the request is of no group: nothing counted, and nothing metered either.
    const begin: onRequestHookHandler = async (request) => {
      request.apiKeyState = newApiKeyState(ANY_GROUP);
    };
    const recordCall: onResponseHookHandler = async function (request, reply) {
      if (request.apiKeyState?.group !== ANY_GROUP) await record.call(this, request, reply, () => undefined);
    };
    return {
      hooks: {
        onRequest: [begin, authenticate, app.maintenanceGate],
        onSend: [timing, refund],
        onError: [noteError],
        onResponse: [recordCall],
      },
      async admit(request, reply, group, meterAs) {
        const state = request.apiKeyState!;
        state.group = group;
        state.meterAs = meterAs;
        for (const step of admitting(group)) await step.call(app, request, reply, () => undefined);
      },
    };
  });
}

/**
 * A processing route's guard, as route hooks in order: who calls (api-key-auth), what their plan allows (plan-gate),
 * the limits (rate-limits: count, refuse, give back what the server failed), reminders (services/usage/reminders.ts)
 * and the usage event (usage-metering):
 * `app.post('/pdf/merge', { ...app.processingGuard('pdf'), schema }, handler)`.
 */
export const apiKeyGuard = fp(plugin, { name: 'api-key-guard' });
