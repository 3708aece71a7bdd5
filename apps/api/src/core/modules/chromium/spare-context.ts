import type { BrowserContextOptions } from 'playwright-core';
import { startEgressProxy, type EgressProxy } from '../../net/egress-proxy';
import type { BrowserHost } from './browser-host';
import { openContext, type OpenedContext } from './render-job';

/** An HTML job's network: a proxy that refuses everything (what the route handler does not see: workers, redirects). */
export interface SealedProxy {
  contextOptions: BrowserContextOptions;
  close(): Promise<void>;
}

interface Spare {
  opened: OpenedContext;
  proxy: SealedProxy;
}

async function sealedProxy(): Promise<SealedProxy> {
  const proxy: EgressProxy = await startEgressProxy(null);
  return {
    contextOptions: { proxy: { server: proxy.server, username: proxy.username, password: proxy.password } },
    close: () => proxy.close(),
  };
}

/**
 * One HTML context opened ahead of the next job: opening a context and its page costs ~250 ms of a ~550 ms render
 * (Chromium starts a renderer for the page), and it can be done while nobody waits. Each spare serves one job only
 * (nothing of one document is left for the next); it is refilled after a job, so a browser that never rendered
 * starts nothing. A spare found dead (the browser crashed or was recycled) is dropped and the job opens its own.
 */
export class SpareContext {
  private next: Promise<Spare | null> | null = null;
  private closed = false;

  constructor(private readonly host: BrowserHost) {}

  /** A never-used context with its page (the spare, or a new one) and its sealed proxy. */
  async take(): Promise<{ opened?: OpenedContext; proxy: SealedProxy }> {
    const pending = this.next;
    this.next = null;
    const spare = pending ? await pending : null;
    if (spare && (await alive(spare.opened))) return spare;
    if (spare) await discard(spare);
    return { proxy: await sealedProxy() };
  }

  /** Open the next spare in the background. */
  refill(): void {
    if (this.closed || this.next) return;
    this.next = (async () => {
      const proxy = await sealedProxy();
      try {
        return { opened: await openContext(this.host, proxy.contextOptions), proxy };
      } catch {
        await proxy.close();
        return null;
      }
    })();
    this.next.catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const spare = await this.next?.catch(() => null);
    this.next = null;
    if (spare) await discard(spare);
  }
}

async function alive(opened: OpenedContext): Promise<boolean> {
  if (opened.page.isClosed() || !opened.context.browser()?.isConnected()) return false;
  // A renderer killed under an open page only shows when asked something.
  return Promise.race([
    opened.page
      .evaluate(() => 1)
      .then(
        () => true,
        () => false,
      ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref()),
  ]);
}

async function discard(spare: Spare): Promise<void> {
  await spare.opened.context.close().catch(() => undefined);
  await spare.proxy.close();
}
