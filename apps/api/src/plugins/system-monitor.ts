import { readFileSync } from 'node:fs';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { SystemMonitor } from '../services/admin/monitor/index';

declare module 'fastify' {
  interface FastifyInstance {
    systemMonitor: SystemMonitor;
  }
}

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

async function plugin(app: FastifyInstance) {
  const c = app.config;
  const monitor = new SystemMonitor({
    database: app.database,
    redis: app.apiKeyGuard.limits.redis,
    engines: app.engines,
    maintenance: app.maintenance,
    keysCached: () => app.apiKeyGuard.cache.size.found,
    config: {
      dataDir: c.dataDir,
      nodeEnv: c.NODE_ENV,
      port: c.PORT,
      version,
      // What an operator needs to read a problem; no secrets and no connection strings.
      settings: {
        NODE_ENV: c.NODE_ENV,
        PORT: c.PORT,
        PUBLIC_URL: c.publicUrl,
        database: app.database.driver,
        redis: c.REDIS_URL ? 'configured' : 'not configured',
        smtp: c.SMTP_URL ? 'configured' : 'outbox files (DATA_DIR/mail)',
        EMAIL_VERIFICATION: c.EMAIL_VERIFICATION,
        TRUST_PROXY: String(c.TRUST_PROXY),
        PROCESSING_CONCURRENCY: c.engines.concurrency,
        PROCESSING_QUEUE_SIZE: c.engines.queueSize,
        PROCESSING_TIMEOUT_MS: c.engines.timeoutMs,
        PROCESSING_NO_NETWORK: c.engines.noNetwork ?? false,
      },
    },
  });
  app.decorate('systemMonitor', monitor);
  app.addHook('onRequest', async () => monitor.requestStarted());
  app.addHook('onResponse', async (_request, reply) => monitor.requestEnded(reply.elapsedTime, reply.statusCode));
  app.onShutdown(() => monitor.stop());
}

/** The system monitor's measurements (services/admin/monitor): this node's traffic, engines and probes. */
export const systemMonitorPlugin = fp(plugin, {
  name: 'system-monitor',
  dependencies: ['api-key-guard', 'maintenance'],
});
