import fp from 'fastify-plugin';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { TEndpointGroup } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { effectiveLimits } from '../services/api-keys/index';
import { planState } from '../services/api-keys/lookup';
import { listPublicPlans } from '../services/plans/index';
import { planProcessing } from '../services/plans/processing';
import type { PlanRow } from '../data/schema/index';
import { ANY_GROUP, type ApiKeyContext, type GuardGroup } from './processing-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /** The onRequest hook letting an authenticated key through to `group` when its plan is live and includes it. */
    planGate(group: GuardGroup): onRequestHookHandler;
  }
}

const day = (d: Date) => d.toISOString().slice(0, 10);

async function plugin(app: FastifyInstance) {
  let planCache: { rows: PlanRow[]; until: number } | null = null;
  async function cheapestAllowing(group: TEndpointGroup): Promise<PlanRow | undefined> {
    if (!planCache || planCache.until < Date.now())
      planCache = { rows: await listPublicPlans(app.db), until: Date.now() + 60_000 };
    return planCache.rows
      .filter((p) => p.allowedEndpoints.includes(group))
      .sort((a, b) => Number(a.price) - Number(b.price))[0];
  }

  app.decorate('planGate', (group: GuardGroup): onRequestHookHandler => {
    return async (request, reply) => {
      const state = request.apiKeyState!;
      const rec = state.rec!;
      const lim = effectiveLimits(rec.plan, rec.customLimits);
      // Refusals here know the key: their answers carry its limit headers too (nothing is counted).
      const refuse = async (err: AppError): Promise<never> => {
        const peek = await app.rateLimits.peek(rec.limitSubject, lim).catch(() => null);
        if (peek) reply.headers(peek.headers);
        throw new AppError(err.code, err.message, { details: err.details, headers: peek?.headers });
      };
      const plan = planState(rec, new Date());
      if (plan !== 'ok') {
        const end = rec.subscription?.expiresAt;
        await refuse(
          new AppError(
            'PLAN_EXPIRED',
            plan === 'expired'
              ? `The ${rec.plan.displayName} plan of this key ${rec.subscription?.status === 'trial' ? 'trial ' : ''}ended${end ? ` on ${day(end)}` : ''}: its keys are suspended until an administrator renews it. Keys on the Free plan keep working.`
              : `This key's ${rec.plan.displayName} plan is not active on your account: start its trial or ask an administrator.`,
            { details: { planName: rec.plan.name, expiresAt: end ? end.toISOString() : null } },
          ),
        );
      }
      if (group !== ANY_GROUP && !lim.allowedEndpoints.includes(group)) {
        const upgrade = await cheapestAllowing(group);
        await refuse(
          new AppError(
            'ENDPOINT_NOT_ALLOWED',
            `The ${group} endpoints are not included in ${rec.customLimits ? 'this custom key' : `the ${rec.plan.displayName} plan`}` +
              (upgrade ? `; they are available from the ${upgrade.displayName} plan` : ''),
            {
              details: {
                group,
                planName: rec.plan.name,
                requiredPlan: upgrade?.name ?? null,
                allowedEndpoints: lim.allowedEndpoints,
              },
            },
          ),
        );
      }
      const context: ApiKeyContext = {
        keyId: rec.keyId,
        userId: rec.userId,
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
      state.context = context;
    };
  });
}

/**
 * What the key's plan allows: a paid plan needs a live trial or subscription (402 PLAN_EXPIRED), and the route's
 * endpoint group must be in the plan or the custom key (403 ENDPOINT_NOT_ALLOWED, naming the cheapest plan that has it).
 */
export const planGate = fp(plugin, { name: 'plan-gate', dependencies: ['rate-limits'] });
