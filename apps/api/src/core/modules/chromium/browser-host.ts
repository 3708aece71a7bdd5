import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { EngineError } from '../../errors';
import type { EngineStatus } from '../../interfaces';
import { toolEnv } from '../../tool-env';

/** Flags every launch gets: headless, no GPU, and none of the browser's own traffic (updates, sync, pings, Safe Browsing). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-pings',
  '--mute-audio',
  // WebRTC's UDP does not go through the proxy: without this a page could send STUN packets to any address.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * One long-lived browser, started on first use (a server that never renders never starts it) and started again after
 * a crash or a kill: the next job after a `disconnected` finds no browser and launches one. Each job gets its own
 * BrowserContext (cookies, cache and storage die with it), so sharing the process costs no isolation that matters
 * here, and saves the ~0.5 s launch per document.
 */
export class BrowserHost {
  private browser: Promise<Browser> | null = null;
  /** HOME and XDG dirs of the browser, so it writes nothing into the server user's own profile. */
  private homeDir: string | null = null;
  private closed = false;
  private launches = 0;
  private crashes = 0;
  private lastCrashAt: number | null = null;
  private running = false;

  constructor(
    private readonly bin: string,
    private readonly extraArgs: string[] = [],
  ) {}

  get(): Promise<Browser> {
    if (this.closed) return Promise.reject(new EngineError('ENGINE_FAILED', 'The HTML renderer is shutting down'));
    if (!this.browser) {
      const p = this.launch();
      this.browser = p;
      p.catch(() => {
        if (this.browser === p) this.browser = null;
      });
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    this.homeDir ??= await mkdtemp(path.join(os.tmpdir(), 'docflow-chromium-'));
    const home = this.homeDir;
    let browser: Browser;
    try {
      // Loaded with the first browser: playwright-core's ~7 MB of source would otherwise sit in every server's heap.
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: this.bin,
        args: [...CHROMIUM_ARGS, ...this.extraArgs],
        // Not the server's environment (secrets, proxies): a page's JavaScript runs in this process tree.
        env: toolEnv({
          HOME: home,
          XDG_CONFIG_HOME: path.join(home, 'config'),
          XDG_CACHE_HOME: path.join(home, 'cache'),
        }),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
    } catch (err) {
      throw new EngineError('ENGINE_FAILED', 'The HTML renderer could not be started', { cause: err });
    }
    this.launches++;
    this.running = true;
    browser.on('disconnected', () => {
      this.running = false;
      if (this.browser && !this.closed) {
        // Not closed by us (recycle() clears `browser` first): the browser died.
        this.crashes++;
        this.lastCrashAt = Date.now();
        this.browser = null;
      }
    });
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new EngineError('ENGINE_FAILED', 'The HTML renderer is shutting down');
    }
    return browser;
  }

  /** For the system monitor: degraded when the browser died on its own in the last five minutes. */
  status(now = Date.now()): EngineStatus {
    const recent = this.lastCrashAt !== null && now - this.lastCrashAt < 5 * 60_000;
    return {
      state: recent ? 'degraded' : 'ok',
      details: {
        running: this.running,
        launches: this.launches,
        crashes: this.crashes,
        lastCrashAt: this.lastCrashAt ? new Date(this.lastCrashAt).toISOString() : null,
      },
      ...(recent
        ? {
            problem: `the browser died ${Math.round((now - this.lastCrashAt!) / 1000)} s ago and was restarted on demand`,
          }
        : {}),
    };
  }

  /** A browser that no longer answers: drop it (the next job launches a new one) and kill it in the background. */
  recycle(): void {
    const b = this.browser;
    this.browser = null;
    void b?.then((browser) => browser.close()).catch(() => undefined);
  }

  /** Close the browser (Playwright waits for the process to exit) and remove its home directory. */
  async close(): Promise<void> {
    this.closed = true;
    const b = this.browser;
    this.browser = null;
    if (b) {
      const browser = await b.catch(() => null);
      await browser?.close().catch(() => undefined);
    }
    if (this.homeDir) await rm(this.homeDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
