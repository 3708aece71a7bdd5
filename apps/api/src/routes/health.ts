import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../lib/app-error';
import type { EngineHealth } from '../core/engine-module';

/** Engine health runs each tool's --version: fresh enough for a readiness probe when a minute old. */
const ENGINE_HEALTH_TTL_MS = 60_000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness',
        response: { 200: z.object({ status: z.literal('ok'), uptime: z.number() }) },
      },
    },
    async () => ({ status: 'ok' as const, uptime: process.uptime() }),
  );

  let engineHealth: { at: number; value: Promise<Record<string, EngineHealth>> } | null = null;
  const engines = () => {
    if (!engineHealth || Date.now() - engineHealth.at > ENGINE_HEALTH_TTL_MS) {
      engineHealth = { at: Date.now(), value: app.engines.health() };
    }
    return engineHealth.value;
  };

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: the database answers, Redis and the S3 job store too when configured, every configured engine runs, and the engines kept warm are up',
        response: { 200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }) },
      },
    },
    async (request) => {
      const checks: Record<string, string> = {};
      const failed: string[] = [];
      const check = async (name: string, probe: () => Promise<unknown>) => {
        try {
          await probe();
          checks[name] = 'ok';
        } catch (err) {
          checks[name] = 'failing';
          failed.push(`${name}: ${(err as Error).message}`);
        }
      };
      const redis = app.apiKeyGuard.limits.redis;
      await Promise.all([
        check('database', () => app.database.ping()),
        redis ? check('redis', () => redis.ping()) : Promise.resolve(),
        app.jobs.store.ping ? check('storage', () => app.jobs.store.ping!()) : Promise.resolve(),
        (async () => {
          for (const [id, h] of Object.entries(await engines())) {
            checks[`engine:${id}`] = h.ok ? 'ok' : 'failing';
            if (!h.ok) failed.push(`engine ${id}: ${h.message ?? 'failing'}`);
          }
        })(),
      ]);
      // Engines the server warms at start: not ready until their processes are up (a failed start is tried again).
      const warm = app.engines.warmState();
      for (const [id, w] of Object.entries(warm)) {
        if (w.state === 'warm' || checks[`engine:${id}`] === 'failing') continue;
        checks[`engine:${id}`] = w.state === 'warming' ? 'warming' : 'failing';
        failed.push(`engine ${id}: ${w.state === 'warming' ? 'starting its processes' : w.message}`);
      }
      if (Object.values(warm).some((w) => w.state === 'failed')) void app.engines.warm();
      if (failed.length) {
        const notOk = Object.keys(checks).filter((k) => checks[k] !== 'ok');
        // The causes (connection strings, paths, driver messages) go to the log: this answer is public. Engines
        // still starting are no fault: a load balancer polls through them.
        const faults = notOk.some((k) => checks[k] === 'failing');
        request.log[faults ? 'warn' : 'debug']({ failures: failed }, 'not ready');
        const said = notOk.map((k) => `${k} ${checks[k]}`).join(', ');
        throw new AppError('SERVICE_UNAVAILABLE', `Not ready: ${said}`, { details: { checks } });
      }
      return { status: 'ready' as const, checks };
    },
  );
};
