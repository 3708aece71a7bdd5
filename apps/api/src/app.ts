import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env';
import type { Database, Db } from './data/db';
import { loggerOptions } from './lib/log-redaction';
import { createMailQueue, type MailQueue } from './services/mail-queue';
import { createMailer, type Mailer } from './services/mailer';
import { createAccessTokens, type AccessTokens } from './services/access-tokens';
import { registerErrorHandler } from './plugins/error-handler';
import { registerDocs } from './plugins/docs';
import { registerAnswerLanguage } from './plugins/answer-language';
import { requestWorkspace } from './plugins/request-workspace';
import { createEngines } from './core/create-engines';
import { noNetworkMode } from './core/isolation';
import { openToTools } from './core/tool-user';
import { registerSecurityHeaders } from './plugins/security-headers';
import { apiKeyGuard } from './plugins/api-key-guard';
import { maintenancePlugin } from './plugins/maintenance';
import { systemMonitorPlugin } from './plugins/system-monitor';
import { jobOwner } from './plugins/job-owner';
import { jobsPlugin } from './plugins/jobs';
import { billingPlugin } from './plugins/billing';
import { healthRoutes } from './routes/health';
import { metricsPlugin } from './plugins/metrics';
import { v1Routes } from './routes/v1/index';
import { gotenbergRoutes } from './routes/gotenberg/index';
import { mcpRoutes } from './routes/mcp/index';
import type { EndpointRegistry } from './endpoints/processing-endpoint';
import { sealerFor, type Sealer } from './services/signing-certificates/seal';
import { AddressCooldown } from './services/accounts/address-cooldown';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    mailer: MailQueue;
    accessTokens: AccessTokens;
    /** Clean-up run when the server closes (flush meters, close pools). */
    onShutdown(fn: () => Promise<void> | void): void;
    /** The processing endpoints by full route, filled as their v1 routes register: a job's run finds its own here. */
    endpoints: EndpointRegistry;
    /** Encryption at rest of the accounts' stored signing certificates, keyed from the server's secret. */
    certificateSealer: Sealer;
    /** The minute an address waits between verification mails, told to the caller (sign-up and resend). */
    verificationMailWaits: AddressCooldown;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** false: no log (tests); a stream: the log written there (tests read it); default: stdout at LOG_LEVEL. */
  logger?: false | { stream: NodeJS.WritableStream; level?: string };
}

const here = path.dirname(fileURLToPath(import.meta.url));
const defaultWebDist = path.resolve(here, '../../web/dist');

/** A hop count as the function proxy-addr builds from one (Fastify's types take addresses or a function). */
const trustedProxies = (t: false | number | string) =>
  typeof t === 'number' ? (_address: string, hop: number) => hop < t : t;

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    // Secrets never reach the log (lib/log-redaction.ts): set here, once, for every line the server writes.
    logger: opts.logger === false ? false : loggerOptions(opts.logger?.level ?? config.LOG_LEVEL, opts.logger?.stream),
    trustProxy: trustedProxies(config.TRUST_PROXY),
    bodyLimit: config.BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', opts.database);
  app.decorate('db', opts.database.db);
  const mailer = createMailQueue(
    opts.mailer ??
      createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.dataDir, log: app.log }),
    app.log,
  );
  app.decorate('mailer', mailer);
  app.decorate('accessTokens', createAccessTokens(config.jwtSecret, config.ACCESS_TOKEN_TTL));
  app.decorate('certificateSealer', sealerFor(config.jwtSecret));
  app.decorate('verificationMailWaits', new AddressCooldown());
  const shutdown: Array<() => Promise<void> | void> = [];
  app.decorate('onShutdown', (fn: () => Promise<void> | void) => void shutdown.push(fn));
  app.addHook('onClose', async () => {
    for (const fn of shutdown.reverse()) await fn();
    await mailer.drain();
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  await registerSecurityHeaders(app);

  registerErrorHandler(app);
  registerAnswerLanguage(app);
  await app.register(cookie);
  // Per-route limits (the key's plan) are passed to request.parts(); these are only the outer bounds.
  await app.register(multipart, {
    limits: { fileSize: 512 * 1_048_576, files: 50, fields: 100, fieldSize: 1_048_576 },
  });
  await app.register(requestWorkspace);
  app.decorate('engines', createEngines(config.engines)); // chains from PDF_*_ENGINES, PROCESSING_* (config/engines.ts)
  app.onShutdown(() => app.engines.close());
  if (config.engines.noNetwork && noNetworkMode() === 'unavailable')
    app.log.warn('tools run with the network: this machine allows no network namespace (see README, Isolation)');
  const unreachable = openToTools(config.tmpDir, config.engines.toolUser);
  if (unreachable) app.log.error(unreachable);
  if (config.engines.toolUser && !app.engines.accounts.isolated)
    app.log.warn(
      `tools of every request run as the one account ${config.engines.toolUser.name}: a tool turned by one request's document could read another's files (create the accounts ${config.engines.toolUser.name}-1… with the set-up script; see README, Isolation)`,
    );
  const pool = app.engines.accounts.stats().size;
  if (app.engines.accounts.isolated && pool < app.engines.accountsWanted())
    app.log.warn(
      `${pool} tools' accounts for ${app.engines.accountsWanted()} at once (PROCESSING_CONCURRENCY and the LibreOffice instances): requests past them wait in the queue for an account while slots stay idle (create more with PROCESSING_TOOL_ACCOUNTS and the set-up script; see README, Isolation)`,
    );
  app.decorateRequest('usage', null as never);
  app.addHook('onRequest', async (request) => {
    request.usage = { bytesIn: 0, bytesOut: 0 };
  });
  app.decorate('endpoints', new Map() as EndpointRegistry);
  app.decorate('jobDoors', new Map());
  await app.register(maintenancePlugin); // maintenance mode, checked by the guard after the key
  await app.register(jobsPlugin); // async=true: jobs stored and run by this node (services/jobs)
  await app.register(apiKeyGuard); // app.processingGuard(group): API-key auth, plan gate, limits, metering
  await app.register(systemMonitorPlugin); // the admin monitor's measurements
  await app.register(jobOwner); // processing slots are shared fairly between the users behind the keys
  await app.register(billingPlugin); // payments through Stripe, when connected (services/billing)
  await registerDocs(app);
  await app.register(healthRoutes);
  await app.register(metricsPlugin);
  await app.register(v1Routes, { prefix: '/api/v1' });
  await app.register(gotenbergRoutes, { prefix: '/gotenberg' }); // the Gotenberg 8 compatible API (issue 14)
  await app.register(mcpRoutes); // /mcp: the processing endpoints as MCP tools, for AI agents
  await serveWeb(app, config.WEB_DIST ? path.resolve(config.WEB_DIST) : defaultWebDist);
  return app;
}

/** The built dashboard at `/`, with history fallback so deep links load index.html. */
async function serveWeb(app: FastifyInstance, dist: string): Promise<void> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.log.warn({ dist }, 'web dashboard not built: only the API is served');
    return;
  }
  await app.register(fastifyStatic, { root: dist, wildcard: false, index: ['index.html'] });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url.startsWith('/api-docs')) {
      return reply.callNotFound();
    }
    const file = path.join(dist, url);
    if (file.startsWith(dist + path.sep) && path.extname(url) && existsSync(file)) {
      return reply.sendFile(path.relative(dist, file));
    }
    if (path.extname(url) && url.startsWith('/assets/')) return reply.callNotFound();
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
