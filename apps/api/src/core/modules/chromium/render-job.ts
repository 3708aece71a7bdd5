import type { BrowserContext, BrowserContextOptions, Page, Request, Response } from 'playwright-core';
import { EngineError, asEngineError } from '../../errors';
import { aborted } from '../../limiter';
import type { BrowserHost } from './browser-host';
import type { PageCapture } from './capture';
import { failsOn, watchResources } from './resource-checks';
import { watchNetwork } from './network-quiet';
import { addScopedHeaders } from './scoped-headers';

export interface RenderJob {
  /** Network and isolation settings of the job's context (its egress proxy). */
  contextOptions: BrowserContextOptions;
  /** Install the job's request policy on the fresh context, before its page loads anything. */
  setup(context: BrowserContext): Promise<void>;
  url: string;
  /** What is made of the loaded page (a PDF, an image), and how the page must be laid out for it. */
  capture: PageCapture;
  /** false: the page's scripts never run (the plan does not include them). Default true. */
  javascript?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * What the main document's failure means for this job (a host the policy refused, a DNS failure), when it can tell
   * better than the browser's net:: error. `lastUrl`: the last URL the main frame navigated to (after redirects).
   */
  explain?(lastUrl: string | null): EngineError | null;
}

/** How long a context may take to close before the browser is considered wedged and restarted. */
const CLOSE_GRACE_MS = 5_000;

const netError = (message: string) => /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? null;

/** A fresh context with its one page, never used for another document. */
export interface OpenedContext {
  context: BrowserContext;
  page: Page;
}

/** Open a context (and its page) as every job gets it; `contextOptions` adds the job's network settings. */
export async function openContext(host: BrowserHost, contextOptions: BrowserContextOptions): Promise<OpenedContext> {
  const browser = await host.get();
  const context = await browser
    .newContext({
      acceptDownloads: false,
      serviceWorkers: 'block',
      javaScriptEnabled: true,
      // A fixed, ordinary screen: layout must not depend on the server.
      viewport: { width: 1280, height: 1024 },
      locale: 'en-US',
      timezoneId: 'UTC',
      ...contextOptions,
    })
    .catch((err: unknown) => {
      throw new EngineError('ENGINE_FAILED', 'The HTML renderer is not available', { cause: err });
    });
  try {
    return { context, page: await context.newPage() };
  } catch (err) {
    await context.close().catch(() => undefined);
    throw new EngineError('ENGINE_FAILED', 'The HTML renderer is not available', { cause: err });
  }
}

/**
 * One document, one fresh context: navigate, wait for `load` and for web fonts, capture. The whole job, from context
 * creation to the output on disk, shares one deadline; on timeout or cancellation the context is closed, which stops
 * the renderer whatever it is doing (an endless script included).
 *
 * `opened`: a context opened ahead of time for this job (its page already has a renderer: ~250 ms saved); it must
 * have been opened with `job.contextOptions` and never used.
 */
export async function runRenderJob(host: BrowserHost, job: RenderJob, opened?: OpenedContext): Promise<void> {
  if (job.signal?.aborted) {
    await opened?.context.close().catch(() => undefined);
    throw aborted();
  }
  const { capture } = job;
  const { context, page } = opened ?? (await openContext(host, job.contextOptions));

  let stopped: 'timeout' | 'aborted' | null = null;
  let onStop!: () => void;
  const stop = new Promise<void>((resolve) => (onStop = resolve));
  const halt = (why: 'timeout' | 'aborted') => {
    if (stopped) return;
    stopped = why;
    onStop();
  };
  const timer = setTimeout(() => halt('timeout'), job.timeoutMs);
  const onAbort = () => halt('aborted');
  job.signal?.addEventListener('abort', onAbort, { once: true });
  // Cancelled while the context was opening: the listener came too late to hear it.
  if (job.signal?.aborted) halt('aborted');

  let lastUrl: string | null = null;
  const work = (async () => {
    await job.setup(context);
    // Per page rather than per context, so a context opened ahead (with scripts on) serves either kind of job.
    if (job.javascript === false) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    }
    // Popups and window.open: closed as soon as they appear, never printed, never left running.
    context.on('page', (p: Page) => {
      if (p !== page) p.close().catch(() => undefined);
    });
    if (capture.viewport) {
      const { width, height, deviceScaleFactor } = capture.viewport;
      await page.setViewportSize({ width, height });
      // Playwright sets the ratio per context only; per page, as Gotenberg does, through the same CDP call.
      if (deviceScaleFactor)
        await (
          await context.newCDPSession(page)
        ).send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile: false });
    }
    // What the caller adds to the page's requests changes what they carry, never where they go (setup's policy).
    const { cookies, extraHttpHeaders, userAgent } = capture.checks;
    if (cookies?.length) await context.addCookies(cookies.map((c) => ({ path: '/', ...c })));
    if (extraHttpHeaders && Object.keys(extraHttpHeaders).length) await page.setExtraHTTPHeaders(extraHttpHeaders);
    const scoped = capture.checks.scopedHttpHeaders;
    if (scoped?.length) await addScopedHeaders(page, scoped);
    // Per page (a context opened ahead serves any job): navigator.userAgent and the requests' header alike.
    if (userAgent) await (await context.newCDPSession(page)).send('Emulation.setUserAgentOverride', { userAgent });
    const exceptions: string[] = [];
    if (capture.checks.failOnConsoleExceptions) page.on('pageerror', (e) => exceptions.push(e.message));
    const isMainDocument = (r: Request) => r.isNavigationRequest() && r.frame() === page.mainFrame();
    page.on('request', (r) => {
      if (isMainDocument(r)) lastUrl = r.url();
    });
    const resources = watchResources(page, capture.checks, isMainDocument);
    const network = capture.checks.waitForNetworkAlmostIdle ? watchNetwork(page, 2) : null;
    let response: Response | null;
    try {
      response = await page.goto(job.url, { waitUntil: 'load', timeout: 0 });
    } catch (err) {
      if (stopped) throw err;
      const explained = job.explain?.(lastUrl);
      if (explained) throw explained;
      const code = netError(String((err as Error).message));
      if (code) {
        throw new EngineError('INVALID_DOCUMENT', `The page could not be loaded (${code})`, {
          cause: err,
          details: { reason: code },
        });
      }
      throw err;
    }
    const explained = job.explain?.(response?.url() ?? lastUrl);
    if (explained) throw explained;
    if (response && failsOn(response.status(), capture.checks.failOnHttpStatusCodes)) {
      throw new EngineError(
        'INVALID_DOCUMENT',
        `The page could not be loaded: the server answered HTTP ${response.status()}`,
        { details: { reason: 'HTTP_STATUS', status: response.status() } },
      );
    }
    if (capture.checks.waitForNetworkIdle) await page.waitForLoadState('networkidle', { timeout: 0 });
    if (network) await network.quiet();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    if (capture.media) await page.emulateMedia({ media: capture.media });
    const features = capture.checks.emulatedMediaFeatures;
    if (features?.length) {
      // Any feature Chromium knows, as Gotenberg passes them (Playwright's emulateMedia names only a few); the media
      // type is restated, since the same call sets both.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setEmulatedMedia', { media: capture.media ?? '', features });
    }
    const delay = capture.waitDelayMs ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay)); // bounded by the job's deadline (the race below)
    const expression = capture.checks.waitForExpression;
    // Polled without a timeout of its own: the job's deadline stops it (the race below).
    if (expression) {
      await page.waitForFunction(expression, undefined, { polling: 100, timeout: 0 }).catch((err: unknown) => {
        if (stopped) throw err;
        throw waitFailed('waitForExpression', expression, `could not be evaluated (${firstLine(err)})`);
      });
    }
    const status = capture.checks.waitWindowStatus;
    // Polled without a timeout of its own, like the expression: the job's deadline stops it.
    if (status !== undefined)
      await page.waitForFunction((s) => window.status === s, status, { polling: 100, timeout: 0 });
    const selector = capture.checks.waitForSelector;
    if (selector) {
      // CSS only (Gotenberg's), whatever Playwright's own selector engines would take.
      await page.waitForSelector(`css=${selector}`, { state: 'visible', timeout: 0 }).catch((err: unknown) => {
        if (stopped) throw err;
        throw waitFailed('waitForSelector', selector, `is not a CSS selector the page can query (${firstLine(err)})`);
      });
    }
    resources.check();
    if (exceptions.length) {
      throw new EngineError('INVALID_DOCUMENT', `The page threw exceptions: ${exceptions.join('; ').slice(0, 500)}`, {
        details: { reason: 'CONSOLE_EXCEPTIONS', exceptions: exceptions.slice(0, 10) },
      });
    }
    if (capture.checks.omitBackground) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    }
    await capture.write(page);
  })();
  // Past a stop, `work` fails as the context closes under it; that failure is expected and already answered.
  work.catch(() => undefined);

  try {
    await Promise.race([work, stop]);
    if (stopped) throw stopError(stopped, job.timeoutMs);
  } catch (err) {
    if (stopped) throw stopError(stopped, job.timeoutMs);
    if (err instanceof EngineError) throw err;
    const message = String((err as Error)?.message ?? '');
    if (/crash/i.test(message)) {
      throw new EngineError('ENGINE_FAILED', 'The page crashed the renderer', { cause: err });
    }
    throw asEngineError(err);
  } finally {
    clearTimeout(timer);
    job.signal?.removeEventListener('abort', onAbort);
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => true,
      ),
      new Promise<false>((r) => setTimeout(() => r(false), CLOSE_GRACE_MS).unref()),
    ]);
    if (!closed) host.recycle();
  }
}

/** A wait the page could not run (the caller's expression or selector), with what was asked (Gotenberg names it). */
const waitFailed = (field: string, value: string, message: string) =>
  new EngineError('INVALID_INPUT', `${field}: ${message}`, { details: { field, reason: 'WAIT_FAILED', value } });

const firstLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 200);

function stopError(why: 'timeout' | 'aborted', timeoutMs: number): EngineError {
  if (why === 'aborted') return aborted();
  return new EngineError(
    'TIMEOUT',
    `The page took longer than ${Math.round(timeoutMs / 100) / 10} s to render and was stopped`,
  );
}
