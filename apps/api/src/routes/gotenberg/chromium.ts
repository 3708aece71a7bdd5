import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import * as convert from '../../core/operations/convert/to-pdf';
import * as toImage from '../../core/operations/convert/to-image';
import { buildSite } from '../../core/operations/convert/build-site';
import { checkSource } from '../../core/operations/convert/sources';
import {
  SCREEN_LIMITS,
  type PageCookie,
  type PrintOptions,
  type ScreenshotOptions,
} from '../../core/operations/convert/interfaces';
import { AppError } from '../../lib/app-error';
import type { UploadedFile } from '../../lib/uploads';
import { checkCompatible, finish, readFinishing, type Finishing } from './finishing';
import { readEmbeds } from './embeds';
import { invalidForm, type GotenbergForm } from './form';
import { readExtraHeaders } from './extra-headers';
import { asNativePageRanges } from './native-page-ranges';
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

/**
 * emulatedMediaFeatures as Gotenberg takes it: a JSON object of CSS media feature names to values, e.g.
 * {"prefers-color-scheme": "dark", "prefers-reduced-motion": "reduce"}.
 */
function readMediaFeatures(form: GotenbergForm): Array<{ name: string; value: string }> | undefined {
  const key = 'emulatedMediaFeatures';
  const raw = form.json(key);
  if (raw === undefined) return undefined;
  const entries = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Object.entries(raw) : null;
  if (
    !entries ||
    !entries.every(
      ([name, value]) => /^[a-z][a-z0-9-]{0,63}$/.test(name) && typeof value === 'string' && value.length <= 100,
    )
  ) {
    form.fail(key, 'is invalid: expected a JSON object of media features such as {"prefers-color-scheme":"dark"}');
    return undefined;
  }
  return entries.length ? entries.map(([name, value]) => ({ name, value: value as string })) : undefined;
}

interface ChromiumForm {
  print: PrintOptions;
  pageRange?: string;
  finishing: Finishing;
}

/**
 * failOnHttpStatusCodes (the page) and failOnResourceHttpStatusCodes (its resources) as Gotenberg takes them: a JSON
 * array of statuses, 499 standing for every 4xx and 599 for every 5xx.
 */
function readFailCodes(form: GotenbergForm, key: string): number[] | undefined {
  const codes = form.json(key);
  if (codes === undefined) return undefined;
  if (!Array.isArray(codes) || !codes.every((c) => Number.isInteger(c) && c >= 100 && c <= 599)) {
    form.fail(key, 'is invalid: expected a JSON array of HTTP status codes such as [499,599]');
    return undefined;
  }
  return codes as number[];
}

/** ignoreResourceHttpStatusDomains: a JSON array of host names ("example.com" also covers its subdomains). */
function readDomains(form: GotenbergForm): string[] | undefined {
  const key = 'ignoreResourceHttpStatusDomains';
  const raw = form.json(key);
  if (raw === undefined) return undefined;
  const domains = Array.isArray(raw) ? raw : [null];
  if (!domains.every((d) => typeof d === 'string' && /^[*.]*[a-z0-9.-]+$/i.test(d.trim()))) {
    form.fail(key, 'is invalid: expected a JSON array of host names such as ["cdn.example.com"]');
    return undefined;
  }
  return (domains as string[]).map((d) =>
    d
      .trim()
      .replace(/^[*.]+/, '')
      .toLowerCase(),
  );
}

/** userAgent: one header value (no line breaks), as long as browsers send. */
function readUserAgent(form: GotenbergForm): string | undefined {
  const ua = form.string('userAgent');
  if (!ua) return undefined;
  if (/[\r\n]/.test(ua) || ua.length > 1000) {
    form.fail('userAgent', 'is invalid: expected one line of at most 1000 characters');
    return undefined;
  }
  return ua;
}

/** Chromium's SameSite names; Gotenberg takes them in any case ("lax", "STRICT"). */
const sameSites: Record<string, PageCookie['sameSite']> = { strict: 'Strict', lax: 'Lax', none: 'None' };

/** cookies as Gotenberg takes it: a JSON array of {name, value, domain, path?, secure?, httpOnly?, sameSite?}. */
function readCookies(form: GotenbergForm): PageCookie[] | undefined {
  const raw = form.json('cookies');
  if (raw === undefined) return undefined;
  const str = (v: unknown) => typeof v === 'string' && v.length > 0;
  const ok =
    Array.isArray(raw) &&
    raw.every(
      (c) =>
        typeof c === 'object' &&
        c !== null &&
        str(c.name) &&
        typeof c.value === 'string' &&
        str(c.domain) &&
        (c.path === undefined || str(c.path)) &&
        (c.secure === undefined || typeof c.secure === 'boolean') &&
        (c.httpOnly === undefined || typeof c.httpOnly === 'boolean') &&
        (c.sameSite === undefined || (typeof c.sameSite === 'string' && sameSites[c.sameSite.toLowerCase()])),
    );
  if (!ok) {
    form.fail(
      'cookies',
      'is invalid: expected a JSON array of {"name","value","domain"} with optional path, secure, httpOnly, sameSite',
    );
    return undefined;
  }
  return (raw as PageCookie[]).map((c) =>
    c.sameSite === undefined ? c : { ...c, sameSite: sameSites[c.sameSite.toLowerCase()] },
  );
}

/**
 * What every Chromium route reads of how the page is loaded and checked: the media type (Gotenberg's default print),
 * the waits (waitDelay, waitForExpression, waitForSelector, the network going idle), the failure rules of the page
 * and of its resources, the background, the user agent, cookies and headers (scoped ones too).
 */
function readPageLoad(form: GotenbergForm) {
  const media = form.string('emulatedMediaType');
  if (media && media !== 'print' && media !== 'screen')
    form.fail('emulatedMediaType', `is invalid (got '${media}'): expected either 'print' or 'screen'`);
  return {
    emulatedMediaType: (media === 'screen' ? 'screen' : 'print') as 'print' | 'screen',
    waitDelayMs: form.duration('waitDelay', 0),
    waitForExpression: form.string('waitForExpression') || undefined,
    waitWindowStatus: form.string('waitWindowStatus') || undefined,
    failOnConsoleExceptions: form.bool('failOnConsoleExceptions', false),
    failOnHttpStatusCodes: readFailCodes(form, 'failOnHttpStatusCodes'),
    failOnResourceHttpStatusCodes: readFailCodes(form, 'failOnResourceHttpStatusCodes'),
    ignoreResourceHttpStatusDomains: readDomains(form),
    failOnResourceLoadingFailed: form.bool('failOnResourceLoadingFailed', false),
    userAgent: readUserAgent(form),
    waitForSelector: form.string('waitForSelector') || undefined,
    // Gotenberg's default (true) prints once the page has loaded; false waits for the network to go quiet too.
    waitForNetworkIdle: !form.bool('skipNetworkIdleEvent', true),
    waitForNetworkAlmostIdle: !form.bool('skipNetworkAlmostIdleEvent', true),
    omitBackground: form.bool('omitBackground', false),
    cookies: readCookies(form),
    ...readExtraHeaders(form),
    emulatedMediaFeatures: readMediaFeatures(form),
  };
}

/** The print fields with Gotenberg's defaults, then every other field of the form (checked at once). */
function readChromiumForm(form: GotenbergForm, extras: UploadedFile[]): ChromiumForm {
  const margin = (side: string) => form.length(`margin${side}`, 0.39);
  const print: PrintOptions = {
    paperWidth: form.length('paperWidth', 8.5),
    paperHeight: form.length('paperHeight', 11),
    margins: { top: margin('Top'), right: margin('Right'), bottom: margin('Bottom'), left: margin('Left') },
    landscape: form.bool('landscape', false),
    printBackground: form.bool('printBackground', false),
    scale: form.float('scale', 1, [0.1, 2]),
    preferCssPageSize: form.bool('preferCssPageSize', false),
    singlePage: form.bool('singlePage', false),
    ...readPageLoad(form),
  };
  if (print.omitBackground && !print.printBackground)
    form.refuseAfterCheck('omitBackground requires printBackground set to true');
  // DocFlow's PDFs are always tagged: either value of generateTaggedPdf is served (a tagged PDF is never less).
  form.bool('generateTaggedPdf', false);
  print.outline = form.bool('generateDocumentOutline', false);
  const pageRange = form.string('nativePageRanges') || undefined;
  const finishing: Finishing = { ...readFinishing(form, extras), embeds: readEmbeds(form, extras) };
  form.check();
  checkCompatible(finishing);
  return { print, pageRange, finishing };
}

/** The fields of the three PDF conversions beside their sources, for the API reference. */
const PDF_FIELDS =
  'paper size and margins (with units), `landscape`, `scale`, `printBackground`, `preferCssPageSize`, `nativePageRanges`, `generateTaggedPdf`, `generateDocumentOutline`, `singlePage`, `emulatedMediaType`, `emulatedMediaFeatures`, `waitDelay`, `waitForExpression`, `waitWindowStatus`, `waitForSelector`, `skipNetworkIdleEvent`, `skipNetworkAlmostIdleEvent`, `userAgent`, `failOnConsoleExceptions`, `failOnHttpStatusCodes`, `failOnResourceHttpStatusCodes`, `failOnResourceLoadingFailed`, `omitBackground`, `cookies` (sameSite in any case), `extraHttpHeaders` (values may end in `;scope=<regex>`), `watermark*`/`stamp*` (as on /forms/pdfengines/watermark and /stamp), `rotateAngle`/`rotatePages`, `metadata` (JSON), `embeds` (files attached to the PDF) with `embedsMetadata`, `facturxXml` (file) with `facturxConformanceLevel`, `facturxDocumentType`, `facturxVersion`, `flatten`, `pdfa` (PDF/A-1b, 2b or 3b), `pdfua`, `splitMode`/`splitSpan`/`splitUnify`, `userPassword`/`ownerPassword`';

/**
 * The file fields beside `files`: Gotenberg's marks (watermark and stamp image or PDF), its `embeds` and the Factur-X
 * invoice (`facturxXml`).
 */
const marks = ['watermark', 'stamp', 'embeds', 'facturxXml'];

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
    selector: form.string('selector') || undefined,
    quality: form.integer('quality', 100, [0, 100]),
    optimizeForSpeed: form.bool('optimizeForSpeed', false),
    deviceScaleFactor: form.float('deviceScaleFactor', 1, [0.1, SCREEN_LIMITS.maxScale]),
    ...readPageLoad(form),
  };
  if (shot.omitBackground && shot.format === 'jpeg')
    form.fail('omitBackground', "is invalid with format 'jpeg' (no transparency): expected format 'png' or 'webp'");
  form.check();
  return shot;
}

const isTemplate = (f: UploadedFile) => /^(header|footer)\.html$/i.test(f.filename);

/** Gotenberg's header.html and footer.html: Chromium's templates, drawn in each page's margins (not assets). */
async function readHeaderFooter(
  files: UploadedFile[],
): Promise<Pick<PrintOptions, 'headerTemplate' | 'footerTemplate'>> {
  const read = async (name: string) => {
    const file = files.find((f) => f.filename.toLowerCase() === name);
    if (!file) return undefined;
    await checkSource(file, 'html-to-pdf', `'${file.filename}'`);
    return readFile(file.path, 'utf8');
  };
  return { headerTemplate: await read('header.html'), footerTemplate: await read('footer.html') };
}

async function finishRender(ctx: GotenbergContext, pdf: Promise<{ path: string; pages?: number }>, f: ChromiumForm) {
  const rendered = await asNativePageRanges(pdf, (beyond) =>
    beyond
      ? `The page ranges '${f.pageRange}' (nativePageRanges) exceeds the page count`
      : `Chromium does not handle the page ranges '${f.pageRange}' (nativePageRanges) syntax`,
  );
  const outputs: NamedFile[] = [{ path: rendered.path, name: uuidName(), pages: rendered.pages }];
  const done = await finish(ctx.job, outputs, f.finishing);
  ctx.meter.pages = done.reduce((n, o) => n + (o.pages ?? 0), 0);
  return conversionOutputs(done, f.finishing);
}

const indexOf = (files: UploadedFile[]) => files.find((f) => f.filename.toLowerCase() === 'index.html');

/** index.html and its assets (every other file), as the html routes take them. */
async function htmlSource(ctx: GotenbergContext) {
  const index = indexOf(ctx.files);
  if (!index) throw invalidForm("form file 'index.html' is required");
  return buildSite(ctx.job.ws, {
    page: { file: index },
    assets: ctx.files.filter((x) => x !== index && !isTemplate(x)),
    label: () => "'index.html'",
  });
}

/** The index.html template filled with the Markdown files sent beside it, as the markdown routes take them. */
async function markdownSource(ctx: GotenbergContext) {
  const template = indexOf(ctx.files);
  const markdown = ctx.files.filter((x) => /\.(md|markdown)$/i.test(x.filename));
  if (!template) throw invalidForm("form file 'index.html' is required");
  if (!markdown.length) throw invalidForm('no form file found for extensions: [.md]');
  return buildSite(ctx.job.ws, {
    page: { file: template },
    assets: ctx.files.filter((x) => x !== template && !isTemplate(x)),
    markdown: true,
    label: (md) => `'${md.filename}'`,
    // Gotenberg's check and words: every file the template names must be among the Markdown files sent.
    missing: (names) =>
      new AppError('BAD_REQUEST', `Markdown file(s) not found: ${names.map((n) => `'${n}'`).join('\n')}`),
  });
}

/** Gotenberg's url routes render remote pages only: a file:// URL is refused in its words. */
function remoteUrl(form: GotenbergForm): string {
  const url = form.mandatoryString('url');
  if (/^\s*file:/i.test(url))
    throw new AppError(
      'BAD_REQUEST',
      'file:// URLs are not accepted on this route. Use the /convert/html or /convert/markdown routes to render local HTML',
    );
  return url;
}

/** The url routes take no file but, when printing, the header and footer templates. */
function refuseFiles(files: UploadedFile[], allowed: (f: UploadedFile) => boolean = () => false): void {
  const other = files.find((f) => !allowed(f));
  if (other) throw invalidForm(`form file '${other.filename}' is not taken by this route`);
}

/** The screenshot as Gotenberg names it: a UUID with the format as extension. */
async function finishShot(shot: Promise<{ path: string }>, format: ScreenshotOptions['format']): Promise<NamedFile[]> {
  const image = await shot;
  return [{ path: image.path, name: uuidName(`.${format}`) }];
}

export function chromiumRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/chromium/convert/html',
    summary: 'HTML to PDF (Chromium)',
    fields: '`files`: index.html, its assets, header.html/footer.html; ' + PDF_FIELDS,
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-pdf' },
    files: { min: 1, max: 123, extraFields: marks },
    async handler(ctx) {
      const f = readChromiumForm(ctx.form, ctx.extras);
      const print = { ...f.print, ...(await readHeaderFooter(ctx.files)) };
      const src = await htmlSource(ctx);
      return finishRender(ctx, convert.htmlToPdf(ctx.job, src.html, src.dir, print, { pageRange: f.pageRange }), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/convert/url',
    summary: 'A web page to PDF (Chromium)',
    fields: '`url`, `files`: header.html/footer.html only; ' + PDF_FIELDS,
    meterAs: { group: 'conversion', endpoint: '/conversion/url-to-pdf' },
    files: { min: 0, max: 25, extraFields: marks },
    async handler(ctx) {
      const url = remoteUrl(ctx.form);
      const f = readChromiumForm(ctx.form, ctx.extras);
      refuseFiles(ctx.files, isTemplate);
      const print = {
        ...f.print,
        ...(await readHeaderFooter(ctx.files)),
        allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE,
      };
      return finishRender(ctx, convert.urlToPdf(ctx.job, url, print, { pageRange: f.pageRange }), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/convert/markdown',
    summary: 'Markdown to PDF (Chromium)',
    fields: '`files`: index.html (a template with {{ toHTML "file.md" }}), the .md files, assets; ' + PDF_FIELDS,
    meterAs: { group: 'conversion', endpoint: '/conversion/markdown-to-pdf' },
    files: { min: 2, max: 123, extraFields: marks },
    async handler(ctx) {
      const f = readChromiumForm(ctx.form, ctx.extras);
      const print = { ...f.print, ...(await readHeaderFooter(ctx.files)) };
      const src = await markdownSource(ctx);
      return finishRender(ctx, convert.htmlToPdf(ctx.job, src.html, src.dir, print, { pageRange: f.pageRange }), f);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/screenshot/html',
    summary: 'A screenshot of HTML (Chromium)',
    fields:
      '`files`: index.html and its assets; `format` (png, jpeg, webp), `quality`, `width`, `height`, `clip`, `selector`, `deviceScaleFactor`, `optimizeForSpeed`, `emulatedMediaType`, `waitDelay`, `waitForExpression`, `waitWindowStatus`, `waitForSelector`, `skipNetworkIdleEvent`, `skipNetworkAlmostIdleEvent`, `userAgent`, `failOnConsoleExceptions`, `failOnHttpStatusCodes`, `failOnResourceHttpStatusCodes`, `failOnResourceLoadingFailed`, `omitBackground`, `cookies` (sameSite in any case), `extraHttpHeaders` (values may end in `;scope=<regex>`)',
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
    summary: 'A screenshot of a web page (Chromium)',
    fields:
      '`url`; `format` (png, jpeg, webp), `quality`, `width`, `height`, `clip`, `selector`, `deviceScaleFactor`, `optimizeForSpeed`, `emulatedMediaType`, `waitDelay`, `waitForExpression`, `waitWindowStatus`, `waitForSelector`, `skipNetworkIdleEvent`, `skipNetworkAlmostIdleEvent`, `userAgent`, `failOnConsoleExceptions`, `failOnHttpStatusCodes`, `failOnResourceHttpStatusCodes`, `failOnResourceLoadingFailed`, `omitBackground`, `cookies` (sameSite in any case), `extraHttpHeaders` (values may end in `;scope=<regex>`)',
    meterAs: { group: 'conversion', endpoint: '/conversion/url-to-image' },
    files: { min: 0, max: 2 },
    async handler(ctx) {
      const url = remoteUrl(ctx.form);
      const shot = readScreenshotForm(ctx.form);
      refuseFiles(ctx.files);
      const options = { ...shot, allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE };
      return finishShot(toImage.urlToImage(ctx.job, url, options, {}), shot.format);
    },
  });

  gotenbergRoute(app, {
    path: '/forms/chromium/screenshot/markdown',
    summary: 'A screenshot of Markdown (Chromium)',
    fields:
      '`files`: index.html (template), the .md files, assets; `format` (png, jpeg, webp), `quality`, `width`, `height`, `clip`, `selector`, `deviceScaleFactor`, `optimizeForSpeed`, `emulatedMediaType`, `waitDelay`, `waitForExpression`, `waitWindowStatus`, `waitForSelector`, `skipNetworkIdleEvent`, `skipNetworkAlmostIdleEvent`, `userAgent`, `failOnConsoleExceptions`, `failOnHttpStatusCodes`, `failOnResourceHttpStatusCodes`, `failOnResourceLoadingFailed`, `omitBackground`, `cookies` (sameSite in any case), `extraHttpHeaders` (values may end in `;scope=<regex>`)',
    meterAs: { group: 'conversion', endpoint: '/conversion/html-to-image' },
    files: { min: 2, max: 100 },
    async handler(ctx) {
      const shot = readScreenshotForm(ctx.form);
      const src = await markdownSource(ctx);
      return finishShot(toImage.htmlToImage(ctx.job, src.html, src.dir, shot, {}), shot.format);
    },
  });
}
