import fp from 'fastify-plugin';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onErrorHookHandler,
  onRequestHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
} from 'fastify';
import type { TEndpointGroup } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import type { ApiKeyContext, ProcessingGuardHooks } from './processing-guard';
import { toAppError } from './error-handler';
import { isWellFormedApiKey } from '../services/api-keys/key-format';
import { planState, type KeyRecord } from '../services/api-keys/lookup';
import { KeyCache } from '../services/api-keys/key-cache';
import { UnknownKeyThrottle } from '../services/api-keys/unknown-key-throttle';
import { effectiveLimits } from '../services/api-keys/index';
import { Limits, type LimitDecision } from '../services/limits/index';
import { UsageMeter } from '../services/usage/meter';
import { monthUsedBySubject } from '../services/limits/month-usage';
import { listPublicPlans } from '../services/plans/index';
import { remindExpiringTrials, TRIAL_REMINDER_DAYS } from '../services/subscriptions/index';
import { notify } from '../services/notifications';
import type { PlanRow } from '../data/schema/index';

/** The pseudo-group of routes every plan may call (GET /ping). */
export const ANY_GROUP = '*' as const;
type GuardGroup = TEndpointGroup | typeof ANY_GROUP;

interface GuardState {
  group: GuardGroup;
  rec: KeyRecord | null;
  decision: LimitDecision | null;
  counted: boolean;
  /** The call was counted, then given back because the server failed it (5xx). */
  refunded: boolean;
  errorCode: string | null;
}

export interface ApiKeyGuardOptions {
  /** How long a found key is trusted (default 1000 ms). */
  cacheTtlMs?: number;
  /** How long an unknown key is remembered (default 60 s). */
  negativeCacheTtlMs?: number;
  /** Unknown or invalid keys one client address may present per minute before 429 (default 20). */
  unknownKeysPerMinute?: number;
  /** Usage writer batching (default every 1000 ms or 200 events). */
  meterFlushIntervalMs?: number;
  meterMaxBatch?: number;
  /** Redis URL for the limiters (default config.REDIS_URL); null forces memory. */
  redisUrl?: string | null;
  redisPrefix?: string;
}

export interface ApiKeyGuard {
  cache: KeyCache;
  unknownKeys: UnknownKeyThrottle;
  limits: Limits;
  meter: UsageMeter;
}

declare module 'fastify' {
  interface FastifyInstance {
    processingGuard(group: TEndpointGroup | typeof ANY_GROUP): ProcessingGuardHooks;
    apiKeyGuard: ApiKeyGuard;
  }
  interface FastifyRequest {
    apiKeyState: GuardState | null;
  }
}

const USAGE_WARN_RATIO = 0.8;

function presentedKey(request: FastifyRequest): string | undefined {
  const x = request.headers['x-api-key'];
  if (typeof x === 'string' && x.trim()) return x.trim();
  const auth = request.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

async function plugin(app: FastifyInstance, opts: ApiKeyGuardOptions) {
  const redisUrl = opts.redisUrl === null ? undefined : (opts.redisUrl ?? app.config.REDIS_URL);
  let lastRedisLog = 0;
  const limits = new Limits({
    redisUrl,
    prefix: opts.redisPrefix,
    monthUsedBefore: (subject, monthStart) => monthUsedBySubject(app.db, subject, monthStart),
    onRedisError: (err) => {
      // Throttled: a Redis outage would otherwise log on every call.
      if (Date.now() - lastRedisLog > 10_000) {
        lastRedisLog = Date.now();
        app.log.warn({ err }, 'rate-limit store (Redis) unavailable: the in-memory insurance limiter answers');
      }
    },
  });
  const cache = new KeyCache(app.db, { ttlMs: opts.cacheTtlMs, negativeTtlMs: opts.negativeCacheTtlMs });
  const unknownKeys = new UnknownKeyThrottle({
    points: opts.unknownKeysPerMinute,
    redis: limits.redis,
    prefix: opts.redisPrefix ?? 'docflow:rl:',
  });
  const meter = new UsageMeter(app.db, {
    flushIntervalMs: opts.meterFlushIntervalMs,
    maxBatch: opts.meterMaxBatch,
    log: app.log,
  });
  app.decorate('apiKeyGuard', { cache, unknownKeys, limits, meter });
  app.decorateRequest('apiKeyState', null);
  // preClose: write the buffered usage while the database is surely open (onClose hooks run last-added first, and
  // server.ts closes the database in one added after this); onShutdown writes what in-flight requests add after it.
  app.addHook('preClose', async () => {
    await meter.flush().catch(() => undefined);
  });
  app.onShutdown(async () => {
    await meter.close();
    await limits.close();
  });

  let planCache: { rows: PlanRow[]; until: number } | null = null;
  async function cheapestAllowing(group: TEndpointGroup): Promise<PlanRow | undefined> {
    if (!planCache || planCache.until < Date.now())
      planCache = { rows: await listPublicPlans(app.db), until: Date.now() + 60_000 };
    return planCache.rows
      .filter((p) => p.allowedEndpoints.includes(group))
      .sort((a, b) => Number(a.price) - Number(b.price))[0];
  }

  const warned = new Set<string>();
  const reminded = new Map<string, number>();

  function afterConsume(rec: KeyRecord, decision: LimitDecision, monthly: number) {
    if (decision.monthUsed >= Math.ceil(monthly * USAGE_WARN_RATIO)) {
      const month = new Date().toISOString().slice(0, 7);
      // One warning per quota: the subscription's (all its keys together) or a custom key's own.
      const dedupeKey = `usage-80:${rec.customLimits ? rec.keyId : `${rec.userId}:${rec.plan.id}`}:${month}`;
      if (!warned.has(dedupeKey)) {
        warned.add(dedupeKey);
        const share = `${Math.floor((decision.monthUsed / monthly) * 100)} %`;
        const figures = `(${decision.monthUsed} / ${monthly} requêtes)`;
        void notify(app.db, rec.userId, {
          type: 'warning',
          title: 'Quota mensuel bientôt atteint',
          message: rec.customLimits
            ? `La clé « ${rec.name} » a utilisé ${share} de son quota mensuel ${figures}.`
            : `Vos clés du forfait ${rec.plan.displayName} ont utilisé ${share} de son quota mensuel ${figures}.`,
          dedupeKey,
        });
      }
    }
    const sub = rec.subscription;
    if (
      sub?.status === 'trial' &&
      sub.expiresAt &&
      sub.expiresAt.getTime() - Date.now() <= TRIAL_REMINDER_DAYS * 86_400_000
    ) {
      const last = reminded.get(sub.id) ?? 0;
      if (Date.now() - last > 3_600_000) {
        reminded.set(sub.id, Date.now());
        void remindExpiringTrials(app.db, rec.userId);
      }
    }
  }

  function hooks(group: GuardGroup): ProcessingGuardHooks {
    const onRequest: onRequestHookHandler = async (request, reply) => {
      const state: GuardState = { group, rec: null, decision: null, counted: false, refunded: false, errorCode: null };
      request.apiKeyState = state;
      const key = presentedKey(request);
      if (!key)
        throw new AppError(
          'API_KEY_REQUIRED',
          'API key required: send it as "x-api-key: <key>" or "Authorization: Bearer <key>"',
        );
      // Anything that would need a lookup is refused while the address is over its unknown-key allowance.
      let rec = cache.cached(key);
      if (!rec) {
        const retryAfter = await unknownKeys.retryAfter(request.ip);
        if (retryAfter > 0)
          throw new AppError(
            'TOO_MANY_ATTEMPTS',
            `Too many unknown or invalid API keys from this address; retry in ${retryAfter} s`,
            { headers: { 'Retry-After': retryAfter }, details: { retryAfter } },
          );
      }
      const notAKey = async (message: string): Promise<never> => {
        await unknownKeys.record(request.ip);
        throw new AppError('INVALID_API_KEY', message);
      };
      if (!isWellFormedApiKey(key)) {
        const jwt = /^[\w-]+\.[\w-]+\.[\w-]+$/.test(key);
        await notAKey(
          jwt
            ? 'A dashboard access token is not an API key: create a key under API Keys and send it as x-api-key'
            : 'Invalid API key',
        );
      }
      rec ??= (await cache.lookup(key)) ?? (await notAKey('Invalid API key'));
      if (!rec.isActive) throw new AppError('INVALID_API_KEY', 'This API key is disabled');
      const now = new Date();
      if (rec.expiresAt && rec.expiresAt <= now)
        throw new AppError('INVALID_API_KEY', `This API key expired on ${day(rec.expiresAt)}`);
      if (!rec.userActive)
        throw new AppError('ACCOUNT_DISABLED', 'The account owning this API key has been deactivated');
      state.rec = rec;
      const lim = effectiveLimits(rec.plan, rec.customLimits);
      // Refusals from here on know the key: their answers carry its limit headers too (nothing is counted).
      const refuse = async (err: AppError): Promise<never> => {
        const peek = await limits.peek(rec.limitSubject, lim).catch(() => null);
        if (peek) reply.headers(peek.headers);
        throw new AppError(err.code, err.message, { details: err.details, headers: peek?.headers });
      };
      const plan = planState(rec, now);
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
      const ctx: ApiKeyContext = {
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
      };
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
      const decision = await limits.consume(rec.limitSubject, ctx.limits);
      state.decision = decision;
      reply.headers(decision.headers);
      if (!decision.allowed) {
        const w = decision.window!;
        throw new AppError(
          decision.code!,
          w === 'month'
            ? `Monthly quota of ${ctx.limits.maxRequestsPerMonth} requests reached; it renews at the start of next month (UTC)`
            : w === 'hour'
              ? `Rate limit exceeded: ${ctx.limits.maxRequestsPerHour} requests per hour; retry in ${decision.retryAfterSec} s`
              : `Rate limit exceeded: ${ctx.limits.maxRequestsPerMinute} requests per minute${ctx.limits.burstLimit ? ` (bursts of ${ctx.limits.burstLimit})` : ''}; retry in ${decision.retryAfterSec} s`,
          { headers: decision.headers, details: { window: w, retryAfter: decision.retryAfterSec } },
        );
      }
      state.counted = true;
      request.apiKey = ctx;
      afterConsume(rec, decision, ctx.limits.maxRequestsPerMonth);
    };

    const onError: onErrorHookHandler = async (request, _reply, error) => {
      if (request.apiKeyState) request.apiKeyState.errorCode = toAppError(error).code;
    };

    const onSend: onSendHookHandler = async (request, reply: FastifyReply, payload) => {
      reply.header('X-Processing-Time-Ms', reply.elapsedTime.toFixed(1));
      // A call the server failed (503 queue full, 504 timeout, any 5xx) gave the caller nothing: give its quota back
      // before the answer leaves, so the answer's headers and the next call already see it. A 4xx still counts: the
      // client caused it and it used the server, and free failures would let a client probe without limit (passwords
      // of a protected PDF, where the size and page limits lie, which keys exist).
      const state = request.apiKeyState;
      const receipt = state?.decision?.receipt;
      if (state?.counted && receipt && reply.statusCode >= 500 && request.apiKey) {
        state.refunded = true;
        const after = await limits.refund(receipt, request.apiKey.limits).catch(() => null);
        if (after) reply.headers(after.headers);
      }
      return payload;
    };

    const onResponse: onResponseHookHandler = async (request, reply) => {
      const state = request.apiKeyState;
      if (!state?.rec) return; // no key identified: nobody to meter against
      const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
      const usage = request.usage ?? { bytesIn: 0, bytesOut: 0 };
      const sentLength = Number(reply.getHeader('content-length') ?? 0);
      meter.record({
        keyId: state.rec.keyId,
        userId: state.rec.userId,
        endpoint: route.replace(/^\/api\/v1/, '') || '/',
        group: state.group === ANY_GROUP ? 'system' : state.group,
        method: request.method,
        statusCode: reply.statusCode,
        durationMs: reply.elapsedTime,
        bytesIn: usage.bytesIn || Number(request.headers['content-length'] ?? 0) || 0,
        bytesOut: usage.bytesOut || (Number.isFinite(sentLength) ? sentLength : 0),
        pages: usage.pages ?? null,
        errorCode: reply.statusCode >= 400 ? state.errorCode : null,
        counted: state.counted && !state.refunded, // refunded calls stay as errors, not as billable calls
        requestId: String(request.id),
        createdAt: new Date(),
      });
    };

    const all = { onRequest: [onRequest], onResponse: [onResponse], onError: [onError], onSend: [onSend] };
    return all;
  }

  app.decorate('processingGuard', hooks);
}

/**
 * API-key authentication, plan gate, limits and metering for processing routes:
 * `app.post('/pdf/merge', { ...app.processingGuard('pdf'), schema }, handler)`.
 */
export const apiKeyGuard = fp(plugin, { name: 'api-key-guard' });
