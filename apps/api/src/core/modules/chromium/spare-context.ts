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
 * A spare nobody took for `idleMs` is closed (its renderer holds ~60 MB): an idle server keeps the browser only.
 */
export class SpareContext {
  private next: Promise<Spare | null> | null = null;
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;

  /** `idleMs`: 0 keeps a spare open however long it waits. */
  constructor(
    private readonly host: BrowserHost,
    private readonly idleMs = 0,
  ) {}

  /** A never-used context with its page (the spare, or a new one) and its sealed proxy. */
  async take(): Promise<{ opened?: OpenedContext; proxy: SealedProxy }> {
    this.stopIdleTimer();
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
    const next = (async () => {
      const proxy = await sealedProxy();
      try {
        return { opened: await openContext(this.host, proxy.contextOptions), proxy };
      } catch {
        await proxy.close();
        return null;
      }
    })();
    this.next = next;
    next.catch(() => undefined);
    if (this.idleMs > 0) {
      this.stopIdleTimer();
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (this.next !== next) return;
        this.next = null;
        void next.then((spare) => spare && discard(spare)).catch(() => undefined);
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopIdleTimer();
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
