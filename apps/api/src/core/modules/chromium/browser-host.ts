import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { EngineError } from '../../errors';
import type { EngineStatus } from '../../interfaces';
import { toolEnv, type ToolEnvBase } from '../../tool-env';
import { runAsPrefix, shareWithTools, type ToolUser } from '../../tool-user';

/** Flags every launch gets: headless, no GPU, and none of the browser's own traffic (updates, sync, pings, Safe Browsing). */
export const CHROMIUM_ARGS = [
  '--headless',
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
  // Not --in-process-gpu (one process fewer, 20-35 MB): with it, renders failed now and then in full test runs
  // (500 ENGINE_FAILED on html-to-image and Gotenberg html, never in isolation); the compositor stays apart.
  // The omnibox popup of a window nobody sees, preloaded as a WebUI renderer (~55 MB), and the renderer Chromium
  // keeps started ahead of the next navigation (~8 MB): the spare context (spare-context.ts) is opened ahead already.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
  // The network service in the browser process rather than a process of its own (~15 MB).
  '--enable-features=NetworkServiceInProcess2',
];

/**
 * Chromium keeps only the last --disable-features and --enable-features it is given, and Playwright passes its own:
 * the launcher joins each kind into one.
 */
const MERGE_FEATURE_LISTS = [
  "dis=''; ena=''; n=$#",
  'while [ "$n" -gt 0 ]; do',
  '  a=$1; shift; n=$((n - 1))',
  '  case "$a" in',
  '    --disable-features=*) dis="$dis,${a#--disable-features=}" ;;',
  '    --enable-features=*) ena="$ena,${a#--enable-features=}" ;;',
  '    *) set -- "$@" "$a" ;;',
  '  esac',
  'done',
  'if [ -n "$dis" ]; then set -- "$@" "--disable-features=${dis#,}"; fi',
  'if [ -n "$ena" ]; then set -- "$@" "--enable-features=${ena#,}"; fi',
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
  /**
   * Chromium's own sandbox (renderers in namespaces of their own, seccomp): on unless the browser runs as root (it
   * refuses to) or the kernel denies it the namespaces, found at the first launch and then kept.
   */
  private sandbox: boolean;
  private launcher: string | null = null;

  constructor(
    private readonly bin: string,
    private readonly extraArgs: string[] = [],
    private readonly toolUser: ToolUser | null = null,
    /** What the browser takes from the server's environment (PATH, the font configuration). */
    private readonly env: ToolEnvBase = {},
  ) {
    this.sandbox = toolUser !== null || process.getuid?.() !== 0;
  }

  /** The browser's process id when started through the launcher (tests check whose it is). */
  async pid(): Promise<number | undefined> {
    if (!this.launcher || !this.running) return undefined;
    const text = await readFile(path.join(path.dirname(this.launcher), 'pid'), 'utf8').catch(() => '');
    return Number(text.trim()) || undefined;
  }

  /** Whether the browser runs with its sandbox (for the system monitor and the tests). */
  get sandboxed(): boolean {
    return this.sandbox && this.launches > 0;
  }

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
    try {
      return await this.launchOnce();
    } catch (err) {
      // A kernel without unprivileged user namespaces (or a seccomp filter forbidding them): run without the sandbox
      // rather than not at all, and say so in the monitor.
      if (!this.sandbox || !/sandbox/i.test(String((err as Error).cause ?? err))) throw err;
      this.sandbox = false;
      return this.launchOnce();
    }
  }

  /**
   * The browser is started through a small launcher (a shell script in a folder of its own, which as root the browser
   * cannot write to): it merges the feature lists (above) and, as root, hands Playwright's fresh profile dir to the
   * tools' account and switches to it (setpriv).
   */
  private async executable(): Promise<string> {
    if (this.launcher) return this.launcher;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docflow-chromium-launcher-'));
    const file = path.join(dir, 'chromium');
    const q = (v: string) => `'${v.replaceAll("'", `'\\''`)}'`;
    const user = this.toolUser;
    await writeFile(
      file,
      [
        '#!/bin/sh',
        ...MERGE_FEATURE_LISTS,
        ...(user
          ? [
              'for a in "$@"; do',
              `  case "$a" in --user-data-dir=*) chown -R ${user.uid}:${user.gid} "\${a#--user-data-dir=}" ;; esac`,
              'done',
            ]
          : []),
        `echo $$ > ${q(path.join(dir, 'pid'))}`,
        `exec ${user ? `${runAsPrefix(user, { newPrivs: true }).map(q).join(' ')} ` : ''}${q(this.bin)} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o700 },
    );
    this.launcher = file;
    return file;
  }

  private async launchOnce(): Promise<Browser> {
    if (!this.homeDir) {
      this.homeDir = await mkdtemp(path.join(os.tmpdir(), 'docflow-chromium-'));
      await shareWithTools(this.homeDir, this.toolUser);
    }
    const home = this.homeDir;
    let browser: Browser;
    try {
      // Loaded with the first browser: playwright-core's ~7 MB of source would otherwise sit in every server's heap.
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: await this.executable(),
        args: [...CHROMIUM_ARGS, ...this.extraArgs],
        // false: Playwright adds --no-sandbox.
        chromiumSandbox: this.sandbox,
        // Not the server's environment (secrets, proxies): a page's JavaScript runs in this process tree.
        env: toolEnv({
          ...this.env,
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
        sandbox: this.sandboxed,
        user: this.toolUser?.name ?? null,
        launches: this.launches,
        // Every launch after the first: a browser that died, or was dropped as wedged, and was started again.
        restarts: Math.max(0, this.launches - 1),
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
    if (this.launcher) await rm(path.dirname(this.launcher), { recursive: true, force: true }).catch(() => undefined);
  }
}
