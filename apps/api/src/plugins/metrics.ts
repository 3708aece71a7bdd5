import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../lib/app-error';

/**
 * GET /metrics in Prometheus text format: HTTP traffic per route, processing slots and queue, engine operations per
 * engine and outcome, and the process (CPU, memory, event-loop lag). One registry per app, so tests and several
 * apps in a process do not mix their figures.
 *
 * Readable with `Authorization: Bearer <METRICS_TOKEN>`, or without it from this machine — but not when TRUST_PROXY
 * is on or the request was forwarded: then a reverse proxy on this host would make every visitor look local.
 */
export const metricsPlugin = fp(async (app) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'docflow_' });

  const requests = new Counter({
    name: 'docflow_http_requests_total',
    help: 'HTTP requests answered, by route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  // Seconds, from a quick answer to the longest processing deadline.
  const seconds = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Histogram<L>({
      name,
      help,
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers: [registry],
    });
  const latency = seconds('docflow_http_request_duration_seconds', 'Time to answer, by route template', [
    'method',
    'route',
  ] as const);
  const operations = new Counter({
    name: 'docflow_engine_operations_total',
    help: 'Processing operations, by operation, engine that answered (or failed last) and outcome',
    labelNames: ['operation', 'engine', 'outcome'] as const,
    registers: [registry],
  });
  const operationTime = seconds(
    'docflow_engine_operation_duration_seconds',
    'Time of processing operations (whole fallback chain)',
    ['operation'] as const,
  );
  const slots = (name: string, help: string, pick: (s: ReturnType<typeof app.engines.stats>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(app.engines.stats()));
      },
    });
  slots('docflow_processing_running', 'Processing jobs running now', (s) => s.running);
  slots('docflow_processing_queued', 'Processing jobs waiting for a slot', (s) => s.queued);
  slots('docflow_processing_concurrency', 'Processing slots (PROCESSING_CONCURRENCY)', (s) => s.concurrency);
  slots('docflow_processing_queue_size', 'Waiting jobs allowed before 503 (PROCESSING_QUEUE_SIZE)', (s) => s.queueSize);

  // Gotenberg's own gauges (its prometheus module, namespace "gotenberg"), beside DocFlow's: a dashboard or alert
  // built on Gotenberg's names keeps working. Read from the engines that run now (0 for one not started).
  const detail = (engine: string, key: string) => {
    const v = app.engines.statuses().find((e) => e.id === engine)?.status?.details[key];
    return typeof v === 'number' ? v : 0;
  };
  for (const [engine, name] of [
    ['chromium', 'Chromium'],
    ['libreoffice', 'LibreOffice'],
  ] as const) {
    new Gauge({
      name: `gotenberg_${engine}_requests_queue_size`,
      help: `Current number of ${name} conversion requests waiting to be treated.`,
      registers: [registry],
      collect() {
        this.set(detail(engine, 'queued'));
      },
    });
    new Gauge({
      name: `gotenberg_${engine}_restarts_count`,
      help: `Current number of ${name} restarts.`,
      registers: [registry],
      collect() {
        this.set(detail(engine, 'restarts'));
      },
    });
  }

  app.engines.observers.push((r) => {
    operations.inc({ operation: r.op, engine: r.engine, outcome: r.ok ? 'ok' : (r.code ?? 'error') });
    operationTime.observe({ operation: r.op }, r.ms / 1000);
  });

  app.addHook('onResponse', async (request, reply) => {
    // Route templates only: raw URLs (ids, 404 probes) would grow the series without bound.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics' || route === '/gotenberg/prometheus/metrics') return;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const tokenDigest = app.config.METRICS_TOKEN ? sha256(app.config.METRICS_TOKEN) : null;
  const scrape = async (request: FastifyRequest, reply: FastifyReply) => {
    authorize(request, tokenDigest, app.config.TRUST_PROXY);
    reply.header('Content-Type', registry.contentType);
    return registry.metrics();
  };
  app.get('/metrics', { schema: { hide: true } }, scrape);
  // Gotenberg's own path under the Gotenberg API's root: a scrape job moved from Gotenberg only changes its host.
  app.get('/gotenberg/prometheus/metrics', { schema: { hide: true } }, scrape);
});

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function authorize(request: FastifyRequest, tokenDigest: Buffer | null, trustProxy: false | number | string): void {
  const auth = request.headers.authorization;
  if (tokenDigest && auth?.startsWith('Bearer ')) {
    if (timingSafeEqual(sha256(auth.slice(7).trim()), tokenDigest)) return;
    throw new AppError('UNAUTHORIZED', 'The metrics token is not correct');
  }
  const local =
    LOOPBACK.has(request.socket.remoteAddress ?? '') &&
    trustProxy === false &&
    request.headers['x-forwarded-for'] === undefined;
  if (local) return;
  if (tokenDigest) throw new AppError('UNAUTHORIZED', 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics');
  throw new AppError(
    'FORBIDDEN',
    'Metrics are served to this machine only; set METRICS_TOKEN to read them from elsewhere',
  );
}
