import type { BrowserContext } from 'playwright-core';
import { EngineError } from '../../errors';
import type { EgressProxy } from '../../net/egress-proxy';
import { PinnedResolver } from '../../net/pinned-resolver';

const WEB = new Set(['http:', 'https:']);
const SOCKETS = new Set(['ws:', 'wss:']);

/**
 * The first line of the url-to-pdf policy, at the page: every request and WebSocket the page's frames open is judged
 * by the job's resolver before it leaves, so a refused one fails fast as "blocked by client" (the page still renders
 * without it). It is not the line that holds: Playwright does not see redirect hops or traffic of workers, and the
 * browser would resolve names again. The job's egress proxy is that line: it applies the same resolver's answers
 * when it connects.
 */
export async function guardRequests(context: BrowserContext, resolver: PinnedResolver): Promise<void> {
  await context.route(
    () => true,
    async (route) => {
      const raw = route.request().url();
      if (raw.startsWith('data:') || raw.startsWith('blob:')) return route.continue();
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return route.abort('blockedbyclient');
      }
      if (!WEB.has(url.protocol) || url.username || url.password) return route.abort('blockedbyclient');
      const d = await resolver.decide(url.hostname);
      return d.ok ? route.continue() : route.abort('blockedbyclient');
    },
  );
  await context.routeWebSocket(
    () => true,
    async (ws) => {
      let url: URL | null = null;
      try {
        url = new URL(ws.url());
      } catch {
        /* refused below */
      }
      const ok =
        url && SOCKETS.has(url.protocol) && !url.username && !url.password && (await resolver.decide(url.hostname)).ok;
      // Connecting from the page's side keeps the socket on the browser's network stack, hence on the proxy.
      if (ok) ws.connectToServer();
      else await ws.close({ code: 1008, reason: 'Blocked by the server policy' });
    },
  );
}

/** Why the main document failed, when the policy or the proxy knows better than the browser's net:: code. */
export function explainMainDocument(
  lastUrl: string | null,
  resolver: PinnedResolver,
  proxy: EgressProxy,
): EngineError | null {
  if (!lastUrl) return null;
  let host: string;
  try {
    host = PinnedResolver.normalise(new URL(lastUrl).hostname);
  } catch {
    return null;
  }
  const refused = resolver.refused.get(host);
  if (refused) return refused;
  const failure = proxy.failures.get(host);
  if (failure) {
    return new EngineError(
      'INVALID_DOCUMENT',
      `The page could not be loaded: connecting to "${host}" failed (${failure})`,
      {
        details: { host, reason: failure },
      },
    );
  }
  return null;
}
