import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { createWorkspace, type Workspace } from '../core/workspace';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's workspace, created on first use and removed once the response is sent or the client left. */
    workspace(): Promise<Workspace>;
  }
}

const WS = Symbol('workspace');
type WithWs = FastifyRequest & { [WS]?: Promise<Workspace> };

async function disposeOf(request: FastifyRequest): Promise<void> {
  const pending = (request as WithWs)[WS];
  if (!pending) return;
  (request as WithWs)[WS] = undefined;
  await (await pending).dispose().catch((err) => request.log.warn({ err }, 'workspace removal failed'));
}

export const requestWorkspace = fp(
  async (app) => {
    app.decorateRequest('workspace', function (this: FastifyRequest) {
      const self = this as WithWs;
      self[WS] ??= createWorkspace(app.config.tmpDir, app.engines.options.toolUser);
      return self[WS];
    });
    // onResponse runs after the body (a file stream from the workspace) is fully sent; onRequestAbort covers a
    // client that goes away mid-request.
    app.addHook('onResponse', async (request) => disposeOf(request));
    app.addHook('onRequestAbort', async (request) => disposeOf(request));
  },
  { name: 'request-workspace' },
);
