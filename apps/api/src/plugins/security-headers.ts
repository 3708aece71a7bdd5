import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The browser's side of the defence, for the dashboard and the API reference served from this origin: scripts only
 * from this origin (no inline script, no eval), no plugins, no framing by other sites (clickjacking), no base-URL or
 * form hijack; styles may be inline (the toast and chart libraries inject them), which runs no code. HSTS only on a
 * request that came over HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto): on plain HTTP it is ignored
 * by browsers and would mislead.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    hsts: false,
    // Results are fetched by API clients from anywhere: no cross-origin isolation headers that would block them.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}
