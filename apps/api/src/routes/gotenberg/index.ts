import type { FastifyInstance } from 'fastify';
import { chromiumRoutes } from './chromium';
import { gotenbergErrorHandler } from './errors';
import { healthVersionRoutes } from './health-version';
import { libreOfficeRoutes } from './libreoffice';
import { pdfEnginesRoutes } from './pdfengines';

/**
 * The Gotenberg 8 compatible API, mounted under its own root (Gotenberg's --api-root-path): a Gotenberg client
 * switches to DocFlow by changing its base URL to <server>/gotenberg and sending an API key (Basic password or
 * x-api-key). Same core, plan limits and metering as /api/v1; Gotenberg's answers (plain-text errors, its statuses,
 * Gotenberg-Output-Filename, Gotenberg-Trace).
 */

/** What genReqId accepts as a client's request id (app.ts): a trace of that form becomes the request id. */
const REQUEST_ID = /^[\w-]{8,64}$/;

export async function gotenbergRoutes(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(gotenbergErrorHandler);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type('text/plain; charset=UTF-8')
      .send(`Route ${request.method} ${request.url.split('?')[0]} not found`),
  );
  // Gotenberg-Trace names the request in Gotenberg's logs and comes back on the answer; here it also becomes the
  // request id (X-Request-Id, the logs, the usage event) when it has a request id's form. Absent, the request id is
  // answered as the trace.
  app.addHook('onRequest', async (request, reply) => {
    const trace = request.headers['gotenberg-trace'];
    const given = typeof trace === 'string' && trace.trim() ? trace.trim().slice(0, 128) : undefined;
    if (given && REQUEST_ID.test(given)) {
      (request as { id: string }).id = given;
      request.log = request.log.child({ trace: given });
      reply.header('X-Request-Id', given);
    }
    reply.header('Gotenberg-Trace', given ?? request.id);
  });
  healthVersionRoutes(app);
  pdfEnginesRoutes(app);
  libreOfficeRoutes(app);
  chromiumRoutes(app);
}
