import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import type { Engine, OpContext } from '../../interfaces';
import type { RenderLimits } from '../../operations/convert/interfaces';
import { startEgressProxy } from '../../net/egress-proxy';
import { PinnedResolver } from '../../net/pinned-resolver';
import { checkUrl, type LookupFn } from '../../net/public-address';
import { waitingCount } from '../../waiting-count';
import { BrowserHost } from './browser-host';
import { pdfCapture, screenshotCapture, type PageCapture } from './capture';
import { documentUrl, serveDocument } from './document-origin';
import { runRenderJob } from './render-job';
import { SpareContext } from './spare-context';
import { explainMainDocument, guardRequests } from './url-guard';

const ZConfig = z.object({
  BIN: z.string().min(1).default('/usr/bin/chromium'),
  /** Per-render deadline in ms; empty: the server's tool timeout. */
  TIMEOUT_MS: z.string().regex(/^\d*$/, 'a number of milliseconds').default(''),
  /** The page opened ahead of the next HTML job is closed after this long unused (ms; 0: kept open). */
  SPARE_IDLE_MS: z.coerce.number().int().min(0).default(30_000),
});
type ChromiumConfig = z.infer<typeof ZConfig>;

/** Test seams: DNS, and hosts let through the address rule (the scheme and credential rules still apply). */
export interface ChromiumDeps {
  lookup?: LookupFn;
  allowHost?: (hostname: string) => boolean;
}

/** The engine, with its browser visible to tests (whose process it is, whether it is sandboxed). */
export interface ChromiumEngine extends Engine {
  readonly host: BrowserHost;
}

export function createChromiumEngine(
  config: ChromiumConfig,
  ctx: EngineContext,
  deps: ChromiumDeps = {},
): ChromiumEngine {
  const host = new BrowserHost(config.BIN, [], ctx.toolUser ?? null, ctx.toolEnv);
  const timeoutMs = () => (config.TIMEOUT_MS ? Number(config.TIMEOUT_MS) : ctx.tools.timeoutMs);

  // HTML jobs all open the same kind of context (no network but its own refusing proxy): one is kept open ahead.
  const spare = new SpareContext(host, config.SPARE_IDLE_MS);
  // Renders waiting for a processing slot (the metrics' queue size).
  const waiting = waitingCount();
  const slot = (work: () => Promise<void>, c: OpContext) =>
    waiting.through((run) => ctx.tools.limiter.run(run, c.signal), work);

  /** An uploaded document under the offline policy, on the spare context when there is one. */
  async function htmlJob(input: string, baseDir: string, capture: PageCapture, limits: RenderLimits, c: OpContext) {
    const url = documentUrl(baseDir, input);
    await slot(async () => {
      const { opened, proxy } = await spare.take();
      try {
        await runRenderJob(
          host,
          {
            contextOptions: proxy.contextOptions,
            setup: (context) => serveDocument(context, baseDir),
            url,
            capture,
            javascript: limits.javascript,
            timeoutMs: Math.min(timeoutMs(), limits.timeoutMs ?? Infinity),
            signal: c.signal,
          },
          opened,
        );
      } finally {
        await proxy.close();
        spare.refill();
      }
    }, c);
  }

  /** A web page, every address it reaches judged by one resolver (the page's requests and its egress proxy). */
  async function urlJob(url: string, allowPrivate: boolean, capture: PageCapture, limits: RenderLimits, c: OpContext) {
    const policy = { allowPrivate, lookup: deps.lookup, allowHost: deps.allowHost, allowList: ctx.outboundAllowList };
    // Refused before queueing: a bad URL costs no browser slot.
    const target = await checkUrl(url, policy);
    const resolver = new PinnedResolver(policy);
    await resolver.decide(target.host);
    await slot(async () => {
      const proxy = await startEgressProxy(resolver);
      try {
        await runRenderJob(host, {
          contextOptions: { proxy: { server: proxy.server, username: proxy.username, password: proxy.password } },
          setup: (context) => guardRequests(context, resolver),
          url: target.url.href,
          capture,
          javascript: limits.javascript,
          timeoutMs: Math.min(timeoutMs(), limits.timeoutMs ?? Infinity),
          signal: c.signal,
          explain: (last) => explainMainDocument(last, resolver, proxy),
        });
      } finally {
        await proxy.close();
      }
    }, c);
  }

  return {
    id: 'chromium',
    host,
    async renderHtml(input, output, opts, c) {
      const { baseDir, javascript, timeoutMs: planMs, ...print } = opts;
      await htmlJob(input, baseDir, pdfCapture(print, output), { javascript, timeoutMs: planMs }, c);
    },
    async renderUrl(url, output, opts, c) {
      const { allowPrivate, javascript, timeoutMs: planMs, ...print } = opts;
      await urlJob(url, allowPrivate, pdfCapture(print, output), { javascript, timeoutMs: planMs }, c);
    },
    async screenshotHtml(input, output, opts, c) {
      const { baseDir, javascript, timeoutMs: planMs, ...shot } = opts;
      await htmlJob(input, baseDir, screenshotCapture(shot, output), { javascript, timeoutMs: planMs }, c);
    },
    async screenshotUrl(url, output, opts, c) {
      const { allowPrivate, javascript, timeoutMs: planMs, ...shot } = opts;
      await urlJob(url, allowPrivate, screenshotCapture(shot, output), { javascript, timeoutMs: planMs }, c);
    },

    close: async () => {
      await spare.close();
      await host.close();
    },
    status: () => {
      const st = host.status();
      return { ...st, details: { ...st.details, queued: waiting.count } };
    },
    // The browser and the first document's context: the first render then costs what every later one does.
    warm: async () => {
      await host.get();
      spare.refill();
    },
  };
}

export const chromiumModule = defineModule<ChromiumConfig>({
  id: 'chromium',
  description: 'Chromium (headless, driven by Playwright): HTML and web pages to PDF and to images',
  license: 'BSD-3-Clause',
  envPrefix: 'CHROMIUM',
  configSchema: ZConfig,
  operations: ['renderHtml', 'renderUrl', 'screenshotHtml', 'screenshotUrl'],
  async healthCheck(config, ctx) {
    // No address-space cap: Chromium reserves tens of GB of virtual memory even to print its version.
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000, rlimits: false });
    return { ok: true, version: /(\d+\.\d+\.\d+\.\d+)/.exec(r.stdout.toString())?.[1] };
  },
  create: (config, ctx) => createChromiumEngine(config, ctx),
});
