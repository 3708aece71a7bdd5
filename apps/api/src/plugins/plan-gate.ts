import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { TEndpointGroup } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { effectiveLimits } from '../services/api-keys/index';
import { groupRefusal, missingGroups, planStateRefusal } from '../services/api-keys/key-admission';
import type { KeyRecord } from '../services/api-keys/lookup';
import { listPublicPlans } from '../services/plans/index';
import { planProcessing } from '../services/plans/processing';
import type { PlanRow } from '../services/plans/index';
import { ANY_GROUP, type ApiKeyContext, type GuardGroup } from './processing-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /** The onRequest hook letting an authenticated key through to `group` when its plan is live and includes it. */
    planGate(group: GuardGroup): onRequestHookHandler;
    /**
     * More groups a call draws on, known once its input is read (a Gotenberg conversion that also encrypts draws on
     * `pdf`): refused as the plan gate refuses its own group.
     */
    requireGroups(request: FastifyRequest, reply: FastifyReply, groups: readonly TEndpointGroup[]): Promise<void>;
  }
}

/** What a key may do, from its record: what every door and a job's run read (its plan's groups, limits, render). */
export function keyContextOf(rec: KeyRecord): ApiKeyContext {
  const lim = effectiveLimits(rec.plan, rec.customLimits);
  return {
    keyId: rec.keyId,
    userId: rec.userId,
    madeByOwner: rec.madeByOwner,
    planName: rec.plan.name,
    environment: rec.environment,
    allowedEndpoints: lim.allowedEndpoints,
    limits: {
      maxFileSize: lim.maxFileSize,
      maxPagesPerPdf: lim.maxPagesPerPdf,
      maxRequestsPerMinute: lim.maxRequestsPerMinute,
      maxRequestsPerHour: lim.maxRequestsPerHour,
      maxRequestsPerMonth: lim.maxRequestsPerMonth,
      burstLimit: lim.burstLimit,
    },
    processing: planProcessing(rec.plan),
  };
}

async function plugin(app: FastifyInstance) {
  let planCache: { rows: PlanRow[]; until: number } | null = null;
  async function cheapestAllowing(group: TEndpointGroup): Promise<PlanRow | undefined> {
    if (!planCache || planCache.until < Date.now())
      planCache = { rows: await listPublicPlans(app.db), until: Date.now() + 60_000 };
    return planCache.rows
      .filter((p) => p.allowedEndpoints.includes(group))
      .sort((a, b) => Number(a.price) - Number(b.price))[0];
  }

  // Refusals here know the key: their answers carry its limit headers too (nothing is counted).
  async function refuse(rec: KeyRecord, reply: FastifyReply, err: AppError): Promise<never> {
    const lim = effectiveLimits(rec.plan, rec.customLimits);
    const peek = await app.rateLimits.peek(rec.limitSubject, lim).catch(() => null);
    if (peek) reply.headers(peek.headers);
    throw new AppError(err.code, err.message, { details: err.details, headers: peek?.headers });
  }

  async function refuseGroups(
    rec: KeyRecord,
    reply: FastifyReply,
    allowed: readonly TEndpointGroup[],
    groups: readonly TEndpointGroup[],
  ): Promise<void> {
    const [group] = missingGroups(allowed, groups);
    if (group) await refuse(rec, reply, groupRefusal(rec, allowed, group, await cheapestAllowing(group)));
  }

  app.decorate('requireGroups', async (request: FastifyRequest, reply: FastifyReply, groups) => {
    const state = request.apiKeyState!;
    await refuseGroups(state.rec!, reply, state.context!.allowedEndpoints, groups);
  });

  app.decorate('planGate', (group: GuardGroup): onRequestHookHandler => {
    return async (request, reply) => {
      const state = request.apiKeyState!;
      const rec = state.rec!;
      const lim = effectiveLimits(rec.plan, rec.customLimits);
      const expired = planStateRefusal(rec);
      if (expired) await refuse(rec, reply, expired);
      if (group !== ANY_GROUP) await refuseGroups(rec, reply, lim.allowedEndpoints, [group]);
      state.context = keyContextOf(rec);
    };
  });
}

/**
 * What the key's plan allows: a paid plan needs a live trial or subscription (402 PLAN_EXPIRED), and the route's
 * endpoint group must be in the plan or the custom key (403 ENDPOINT_NOT_ALLOWED, naming the cheapest plan that has it).
 */
export const planGate = fp(plugin, { name: 'plan-gate', dependencies: ['rate-limits'] });
