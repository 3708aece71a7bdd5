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
    // Every workspace not yet removed: closing the server removes what is left (a request whose connection was cut
    // after its answer was sent may not have reached its onResponse removal yet).
    const live = new Set<Promise<Workspace>>();
    app.decorateRequest('workspace', function (this: FastifyRequest) {
      const self = this as WithWs;
      if (!self[WS]) {
        const made = createWorkspace(app.config.tmpDir, app.engines.accounts);
        live.add(made);
        self[WS] = made;
      }
      return self[WS];
    });
    // onResponse runs after the body (a file stream from the workspace) is fully sent; onRequestAbort covers a
    // client that goes away mid-request. The hooks after it (usage, metrics) run once the removal is done (letting
    // them run first once lost the Gotenberg routes' per-file usage events). A client may have its answer before
    // the removal ends (the response is sent first), so closing the server also waits for every removal under way.
    const removals = new Set<Promise<void>>();
    const dispose = async (request: FastifyRequest) => {
      const made = (request as WithWs)[WS];
      if (made) live.delete(made);
      const removal = disposeOf(request);
      removals.add(removal);
      try {
        await removal;
      } finally {
        removals.delete(removal);
      }
    };
    app.addHook('onResponse', async (request) => dispose(request));
    app.addHook('onRequestAbort', async (request) => dispose(request));
    app.addHook('onClose', async () => {
      const left = [...live].map(async (made) => (await made).dispose().catch(() => undefined));
      live.clear();
      await Promise.all([...removals, ...left]);
    });
  },
  { name: 'request-workspace' },
);
