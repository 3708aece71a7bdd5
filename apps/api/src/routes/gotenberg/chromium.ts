import type { FastifyInstance } from 'fastify';
import * as convert from '../../core/convert/to-pdf';
import { buildMarkdownHtml } from '../../core/convert/markdown';
import { checkSource, htmlSite } from '../../core/convert/sources';
import type { PrintOptions } from '../../core/interfaces';
import type { UploadedFile } from '../../lib/uploads';
import { finish, readFinishing, type Finishing } from './finishing';
import { asGotenbergField, invalidForm, isEmptyJson, isFalse, isTrue, type GotenbergForm } from './form';
import { conversionOutputs, uuidName, type NamedFile } from './output';
import { gotenbergRoute, type GotenbergContext } from './route';

/**
 * Gotenberg's POST /forms/chromium/convert/{html,url,markdown} on DocFlow's Chromium renders (the same browser pool,
 * asset sandbox and URL rules as /conversion/html-to-pdf, url-to-pdf and markdown-to-pdf, as which they are counted
 * and metered). Print fields take Gotenberg's defaults (Letter, 0.39 in margins, no background); nativePageRanges
 * keeps the pages asked; the finishing fields apply as in Gotenberg.
 */

/** Gotenberg's default for failOnHttpStatusCodes (4xx and 5xx: what DocFlow refuses anyway). */
const defaultFailCodes = (v: string) => {
  try {
    const codes = JSON.parse(v) as unknown;
    return Array.isArray(codes) && codes.length === 2 && codes.includes(499) && codes.includes(599);
  } catch {
    return false;
  }
};

/**
 * Chromium fields DocFlow's renderer does not offer, with Gotenberg's default: a client sending the default is
 * served, any other value is refused by name. (Cookies, headers and user agents would widen what a render may
 * fetch: they stay out until the URL rules cover them.)
 */
const unsupportedDefaults: Record<string, (v: string) => boolean> = {
  singlePage: isFalse,
  omitBackground: isFalse,
  generateDocumentOutline: isFalse,
  waitForExpression: () => false,
  waitForSelector: () => false,
  emulatedMediaFeatures: isEmptyJson,
  cookies: isEmptyJson,
  userAgent: () => false,
  extraHttpHeaders: isEmptyJson,
  failOnHttpStatusCodes: defaultFailCodes,
  failOnResourceHttpStatusCodes: isEmptyJson,
  ignoreResourceHttpStatusDomains: isEmptyJson,
  failOnResourceLoadingFailed: isFalse,
  failOnConsoleExceptions: isFalse,
  // DocFlow prints once the page has loaded, without waiting for the network to go idle: Gotenberg's default.
  skipNetworkIdleEvent: isTrue,
  skipNetworkAlmostIdleEvent: isTrue,
};

interface ChromiumForm {
  print: PrintOptions;
  pageRange?: string;
  finishing: Finishing;
}

/** The print fields with Gotenberg's defaults, then every other field of the form (checked at once). */
function readChromiumForm(form: GotenbergForm): ChromiumForm {
  const media = form.string('emulatedMediaType');
  if (media && media !== 'print' && media !== 'screen')
    form.fail('emulatedMediaType', `is invalid (got '${media}'): expected either 'print' or 'screen'`);
  const margin = (side: string) => form.length(`margin${side}`, 0.39);
  const print: PrintOptions = {
    paperWidth: form.length('paperWidth', 8.5),
    paperHeight: form.length('paperHeight', 11),
    margins: { top: margin('Top'), right: margin('Right'), bottom: margin('Bottom'), left: margin('Left') },
    landscape: form.bool('landscape', false),
    printBackground: form.bool('printBackground', false),
    scale: form.float('scale', 1, [0.1, 2]),
    preferCssPageSize: form.bool('preferCssPageSize', false),
    emulatedMediaType: media === 'screen' ? 'screen' : 'print',
    waitDelayMs: form.duration('waitDelay', 0),
  };
  // DocFlow's PDFs are always tagged: either value of generateTaggedPdf is served (a tagged PDF is never less).
  form.bool('generateTaggedPdf', false);
  const pageRange = form.string('nativePageRanges') || undefined;
  for (const [key, isDefault] of Object.entries(unsupportedDefaults)) form.unsupported(key, isDefault);
  const finishing = readFinishing(form);
  form.check();
  return { print, pageRange, finishing };
}

/** Gotenberg's header and footer templates: DocFlow has none, so they are refused by name rather than left out. */
function refuseHeaderFooter(files: UploadedFile[]): void {
  const hf = files.find((f) => /^(header|footer)\.html$/i.test(f.filename));
  if (hf) throw invalidForm(`form file '${hf.filename}' is not supported by DocFlow (no header or footer templates)`);
}

async function finishRender(ctx: GotenbergContext, pdf: Promise<{ path: string; pages?: number }>, f: ChromiumForm) {
  const rendered = await asGotenbergField(pdf, 'pageRange', 'nativePageRanges');
  const outputs: NamedFile[] = [{ path: rendered.path, name: uuidName(), pages: rendered.pages }];
  const done = await finish(ctx.job, outputs, f.finishing);
  ctx.request.usage.pages = done.reduce((n, o) => n + (o.pages ?? 0), 0);
  return conversionOutputs(done, f.finishing);
}

const indexOf = (files: UploadedFile[]) => files.find((f) => f.filename.toLowerCase() === 'index.html');

export function chromiumRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/chromium/convert/html',
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-pdf' },
    files: { min: 1, max: 100 },
    async handler(ctx) {
      const f = readChromiumForm(ctx.form);
      refuseHeaderFooter(ctx.files);
      const index = indexOf(ctx.files);
      if (!index) throw invalidForm("form file 'index.html' is required");
      await checkSource(index, 'html-to-pdf', "'index.html'");
      const site = await htmlSite(
        ctx.job.ws,
        { file: index },
        ctx.files.filter((x) => x !== index),
      );
      return finishRender(
        ctx,
        convert.htmlToPdf(ctx.job, site.index, site.dir, f.print, { pageRange: f.pageRange }),
        f,
      );
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/convert/url',
    meterAs: { group: 'conversion', endpoint: '/conversion/url-to-pdf' },
    files: { min: 0, max: 2 },
    async handler(ctx) {
      const url = ctx.form.mandatoryString('url');
      const f = readChromiumForm(ctx.form);
      refuseHeaderFooter(ctx.files);
      if (ctx.files[0]) throw invalidForm(`form file '${ctx.files[0].filename}' is not taken by this route`);
      const print = { ...f.print, allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE };
      return finishRender(ctx, convert.urlToPdf(ctx.job, url, print, { pageRange: f.pageRange }), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/convert/markdown',
    meterAs: { group: 'conversion', endpoint: '/conversion/markdown-to-pdf' },
    files: { min: 2, max: 100 },
    async handler(ctx) {
      const f = readChromiumForm(ctx.form);
      refuseHeaderFooter(ctx.files);
      const template = indexOf(ctx.files);
      const markdown = ctx.files.filter((x) => /\.(md|markdown)$/i.test(x.filename));
      if (!template) throw invalidForm("form file 'index.html' is required");
      if (!markdown.length) throw invalidForm('no form file found for extensions: [.md]');
      for (const md of markdown) await checkSource(md, 'markdown-to-pdf', `'${md.filename}'`);
      const site = await htmlSite(
        ctx.job.ws,
        { file: template },
        ctx.files.filter((x) => x !== template),
      );
      const html = await buildMarkdownHtml(site.index, site.dir);
      return finishRender(ctx, convert.htmlToPdf(ctx.job, html, site.dir, f.print, { pageRange: f.pageRange }), f);
    },
  });
}
