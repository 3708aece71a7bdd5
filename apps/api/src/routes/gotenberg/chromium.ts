import type { FastifyInstance } from 'fastify';
import * as convert from '../../core/convert/to-pdf';
import * as toImage from '../../core/convert/to-image';
import { buildMarkdownHtml } from '../../core/convert/markdown';
import { checkSource, htmlSite } from '../../core/convert/sources';
import { SCREEN_LIMITS, type PrintOptions, type ScreenshotOptions } from '../../core/interfaces';
import type { UploadedFile } from '../../lib/uploads';
import { finish, readFinishing, type Finishing } from './finishing';
import { asGotenbergField, invalidForm, isEmptyJson, isFalse, isTrue, type GotenbergForm } from './form';
import { conversionOutputs, uuidName, type NamedFile } from './output';
import { gotenbergRoute, type GotenbergContext } from './route';

/**
 * Gotenberg's POST /forms/chromium/convert/{html,url,markdown} on DocFlow's Chromium renders (the same browser pool,
 * asset sandbox and URL rules as /conversion/html-to-pdf, url-to-pdf and markdown-to-pdf, as which they are counted
 * and metered). Print fields take Gotenberg's defaults (Letter, 0.39 in margins, no background); nativePageRanges
 * keeps the pages asked; the finishing fields apply as in Gotenberg. POST /forms/chromium/screenshot/{html,url,markdown}
 * capture the same pages as images (counted as /conversion/html-to-image and url-to-image), with Gotenberg's
 * defaults (an 800 × 600 screen, the whole page, png, print media).
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

/**
 * What every Chromium route reads of how the page is loaded: the media type (Gotenberg's default print), waitDelay,
 * and the fields DocFlow does not offer. `served`: the fields of `unsupportedDefaults` this route does honour.
 */
function readPageLoad(form: GotenbergForm, served: string[] = []) {
  const media = form.string('emulatedMediaType');
  if (media && media !== 'print' && media !== 'screen')
    form.fail('emulatedMediaType', `is invalid (got '${media}'): expected either 'print' or 'screen'`);
  for (const [key, isDefault] of Object.entries(unsupportedDefaults))
    if (!served.includes(key)) form.unsupported(key, isDefault);
  return {
    emulatedMediaType: (media === 'screen' ? 'screen' : 'print') as 'print' | 'screen',
    waitDelayMs: form.duration('waitDelay', 0),
  };
}

/** The print fields with Gotenberg's defaults, then every other field of the form (checked at once). */
function readChromiumForm(form: GotenbergForm): ChromiumForm {
  const margin = (side: string) => form.length(`margin${side}`, 0.39);
  const print: PrintOptions = {
    paperWidth: form.length('paperWidth', 8.5),
    paperHeight: form.length('paperHeight', 11),
    margins: { top: margin('Top'), right: margin('Right'), bottom: margin('Bottom'), left: margin('Left') },
    landscape: form.bool('landscape', false),
    printBackground: form.bool('printBackground', false),
    scale: form.float('scale', 1, [0.1, 2]),
    preferCssPageSize: form.bool('preferCssPageSize', false),
    ...readPageLoad(form),
  };
  // DocFlow's PDFs are always tagged: either value of generateTaggedPdf is served (a tagged PDF is never less).
  form.bool('generateTaggedPdf', false);
  const pageRange = form.string('nativePageRanges') || undefined;
  const finishing = readFinishing(form);
  form.check();
  return { print, pageRange, finishing };
}

const screenshotFormats = ['png', 'jpeg', 'webp'] as const;

/** Gotenberg's screenshot fields with its defaults, then every other field of the form (checked at once). */
function readScreenshotForm(form: GotenbergForm): ScreenshotOptions {
  const raw = form.string('format', 'png');
  const format = screenshotFormats.find((f) => f === raw);
  if (!format) form.fail('format', `is invalid (got '${raw}'): expected either 'png', 'jpeg' or 'webp'`);
  const side = (key: string, fallback: number, max: number) =>
    form.integer(key, fallback, [SCREEN_LIMITS.minSide, max]);
  const shot: ScreenshotOptions = {
    format: format ?? 'png',
    width: side('width', 800, SCREEN_LIMITS.maxWidth),
    height: side('height', 600, SCREEN_LIMITS.maxHeight),
    clip: form.bool('clip', false),
    quality: form.integer('quality', 100, [0, 100]),
    omitBackground: form.bool('omitBackground', false),
    optimizeForSpeed: form.bool('optimizeForSpeed', false),
    ...readPageLoad(form, ['omitBackground']),
  };
  if (shot.omitBackground && shot.format === 'jpeg')
    form.fail('omitBackground', "is invalid with format 'jpeg' (no transparency): expected format 'png' or 'webp'");
  form.check();
  return shot;
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

/** index.html and its assets (every other file), as the html routes take them. */
async function htmlSource(ctx: GotenbergContext) {
  const index = indexOf(ctx.files);
  if (!index) throw invalidForm("form file 'index.html' is required");
  await checkSource(index, 'html-to-pdf', "'index.html'");
  const site = await htmlSite(
    ctx.job.ws,
    { file: index },
    ctx.files.filter((x) => x !== index),
  );
  return { html: site.index, dir: site.dir };
}

/** The index.html template filled with the Markdown files sent beside it, as the markdown routes take them. */
async function markdownSource(ctx: GotenbergContext) {
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
  return { html: await buildMarkdownHtml(site.index, site.dir), dir: site.dir };
}

/** The url route takes no file at all. */
function refuseFiles(files: UploadedFile[]): void {
  if (files[0]) throw invalidForm(`form file '${files[0].filename}' is not taken by this route`);
}

/** The screenshot as Gotenberg names it: a UUID with the format as extension. */
async function finishShot(shot: Promise<{ path: string }>, format: ScreenshotOptions['format']): Promise<NamedFile[]> {
  const image = await shot;
  return [{ path: image.path, name: uuidName(`.${format}`) }];
}

export function chromiumRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/chromium/convert/html',
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-pdf' },
    files: { min: 1, max: 100 },
    async handler(ctx) {
      const f = readChromiumForm(ctx.form);
      refuseHeaderFooter(ctx.files);
      const src = await htmlSource(ctx);
      return finishRender(ctx, convert.htmlToPdf(ctx.job, src.html, src.dir, f.print, { pageRange: f.pageRange }), f);
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
      refuseFiles(ctx.files);
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
      const src = await markdownSource(ctx);
      return finishRender(ctx, convert.htmlToPdf(ctx.job, src.html, src.dir, f.print, { pageRange: f.pageRange }), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/screenshot/html',
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-image' },
    files: { min: 1, max: 100 },
    async handler(ctx) {
      const shot = readScreenshotForm(ctx.form);
      const src = await htmlSource(ctx);
      return finishShot(toImage.htmlToImage(ctx.job, src.html, src.dir, shot, {}), shot.format);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/screenshot/url',
    meterAs: { group: 'conversion', endpoint: '/conversion/url-to-image' },
    files: { min: 0, max: 2 },
    async handler(ctx) {
      const url = ctx.form.mandatoryString('url');
      const shot = readScreenshotForm(ctx.form);
      refuseFiles(ctx.files);
      const options = { ...shot, allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE };
      return finishShot(toImage.urlToImage(ctx.job, url, options, {}), shot.format);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/screenshot/markdown',
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-image' },
    files: { min: 2, max: 100 },
    async handler(ctx) {
      const shot = readScreenshotForm(ctx.form);
      const src = await markdownSource(ctx);
      return finishShot(toImage.htmlToImage(ctx.job, src.html, src.dir, shot, {}), shot.format);
    },
  });
}
