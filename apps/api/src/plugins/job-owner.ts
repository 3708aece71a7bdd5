import fp from 'fastify-plugin';
import type { RouteHandlerMethod } from 'fastify';
import { runAsOwner } from '../core/limiter';

/**
 * Every route handler runs as the user behind its API key (when the processing guard found one), so each processing
 * slot it takes, in any engine, counts against that user's share (core/limiter.ts). Wrapping the handler, rather
 * than entering the context in a hook, keeps the owner exactly to the handler's own async work.
 */
export const jobOwner = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const handler = route.handler as RouteHandlerMethod;
      route.handler = function (request, reply) {
        const key = request.apiKey;
        if (!key) return handler.call(this, request, reply);
        return runAsOwner({ id: key.userId, weight: key.processing.weight }, () => handler.call(this, request, reply));
      };
    });
  },
  { name: 'job-owner' },
);
