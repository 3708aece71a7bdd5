import { writeFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ZBatchFields,
  ZConversionFormatsResponse,
  ZErrorResponse,
  ZFileResultResponse,
  ZHtmlFields,
  ZHtmlImageFields,
  ZImageToPdfFields,
  ZOfficeFields,
  ZPrintFields,
  ZSpreadsheetFields,
  ZUrlFields,
  ZUrlImageFields,
  type TBatchManifestEntry,
  type TScreenshotFields,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { baseName, outputName, sendFile, sendZip } from '../../../lib/send-result';
import type { UploadedFile } from '../../../lib/uploads';
import * as convert from '../../../core/convert/to-pdf';
import * as toImage from '../../../core/convert/to-image';
import { autoSource, convertSource, convertUpload, markdownTemplate } from '../../../core/convert/convert-source';
import { formats } from '../../../core/convert/detect-format';
import { buildMarkdownHtml } from '../../../core/convert/markdown';
import { printOptions } from '../../../core/convert/print-options';
import {
  assetName,
  checkSource,
  htmlSite,
  routeFormats,
  routeOperation,
  type ConversionRoute,
} from '../../../core/convert/sources';
import { EngineError } from '../../../core/errors';
import type { PageChecks, ScreenshotOptions } from '../../../core/interfaces';
import type { OutputFile, PdfJob } from '../../../core/pdf/operations';
import { toAppError } from '../../../plugins/error-handler';
import { registerProcessingRoute, type FileSpec } from '../../../plugins/processing-routes';

const fileAnswer = ZFileResultResponse.describe(
  'The PDF itself with Content-Disposition; with Accept: application/json, this JSON',
);

/** The converted PDF, named after the source; its pages go to the usage meter. */
function sendPdf(request: FastifyRequest, reply: FastifyReply, from: string, file: OutputFile) {
  request.usage.pages = file.pages;
  return sendFile(request, reply, {
    path: file.path,
    fileName: outputName(from, file.name, 'pdf').replace(/-converted\.pdf$/, '.pdf'),
    mimeType: 'application/pdf',
    pages: file.pages,
  });
}

const one = (description: string): FileSpec => ({ field: 'file', min: 1, max: 1, description });

/**
 * The page of an HTML upload (index.html among the files, the only HTML file, or the `html` field) with its assets
 * in a site of their own, and the name its output is called after.
 */
async function uploadedSite(job: PdfJob, html: string | undefined, files: UploadedFile[]) {
  const pages = files.filter((f) => /\.html?$/i.test(f.filename));
  const page = pages.find((f) => /^index\.html?$/i.test(f.filename)) ?? (pages.length === 1 ? pages[0] : undefined);
  if (!page && html === undefined) {
    throw new AppError(
      'INVALID_INPUT',
      pages.length > 1
        ? 'files: several HTML files: name the page index.html'
        : 'Send the page as an HTML file (multipart "files") or in the "html" field',
      { details: { field: 'files' } },
    );
  }
  if (page) await checkSource(page, 'html-to-pdf');
  const site = await htmlSite(
    job.ws,
    page ? { file: page } : { html },
    files.filter((f) => f !== page),
  );
  return { site, name: page?.filename ?? 'page.html' };
}

/** A web page's output is named after its host. */
function pageNameOf(url: string): string {
  try {
    return `${new URL(url).hostname || 'page'}.html`;
  } catch {
    return 'page.html'; // the engine refused it already
  }
}

const imageAnswer = ZFileResultResponse.describe(
  'The image itself (png, jpeg or webp) with Content-Disposition; with Accept: application/json, this JSON',
);

/** The screenshot, named after the source with the format's extension. */
function sendImage(
  request: FastifyRequest,
  reply: FastifyReply,
  from: string,
  format: TScreenshotFields['format'],
  file: OutputFile,
) {
  const fileName = `${baseName(from, 'page')}.${toImage.imageExtension(format)}`;
  return sendFile(request, reply, { path: file.path, fileName, mimeType: `image/${format}` });
}

/** The page checks of the HTML and URL routes (their schemas share them). */
const pageChecksOf = (f: { waitForExpression?: string; failOnConsoleExceptions: boolean }): PageChecks => ({
  waitForExpression: f.waitForExpression?.trim() || undefined,
  failOnConsoleExceptions: f.failOnConsoleExceptions,
});

/** The capture fields as the engine takes them; what the schema alone cannot refuse is refused here, by name. */
function screenshotOptions(f: TScreenshotFields): ScreenshotOptions {
  if (f.quality !== undefined && f.format === 'png')
    throw new AppError('INVALID_INPUT', 'quality: png is lossless and takes no quality (valid with: jpeg, webp)', {
      details: { field: 'quality' },
    });
  if (f.omitBackground && f.format === 'jpeg')
    throw new AppError('INVALID_INPUT', 'omitBackground: jpeg has no transparency (valid with: png, webp)', {
      details: { field: 'omitBackground' },
    });
  return {
    format: f.format,
    quality: f.quality,
    width: f.width,
    height: f.height,
    clip: f.clip,
    omitBackground: f.omitBackground,
    emulatedMediaType: f.emulatedMediaType,
    waitDelayMs: f.waitDelay,
  };
}

/** Office routes differ only in their name, formats and fields. */
function officeRoute(
  app: FastifyInstance,
  route: 'word-to-pdf' | 'excel-to-pdf' | 'powerpoint-to-pdf',
  summary: string,
  fields: typeof ZOfficeFields | typeof ZSpreadsheetFields,
) {
  registerProcessingRoute(app, {
    path: `/${route}`,
    group: 'conversion',
    noun: 'document',
    summary,
    description: `Takes ${routeFormats[route].join(', ')} (detected from the bytes). Converted by LibreOffice; macros never run and linked content is never fetched.`,
    fields,
    files: one(`The document (${routeFormats[route].join(', ')})`),
    response: fileAnswer,
    async handler({ request, reply, fields: f, files, job }) {
      const result = await convertUpload(job, files[0]!, route, f as z.output<typeof ZSpreadsheetFields>);
      return sendPdf(request, reply, files[0]!.filename, result);
    },
  });
}

export async function conversionRoutes(app: FastifyInstance): Promise<void> {
  officeRoute(app, 'word-to-pdf', 'Word processing documents to PDF', ZOfficeFields);
  officeRoute(app, 'excel-to-pdf', 'Spreadsheets to PDF', ZSpreadsheetFields);
  officeRoute(app, 'powerpoint-to-pdf', 'Presentations to PDF', ZOfficeFields);

  registerProcessingRoute(app, {
    path: '/html-to-pdf',
    group: 'conversion',
    noun: 'HTML',
    summary: 'HTML to PDF (Chromium)',
    description:
      'The page is `index.html` among `files` (or the only HTML file), or the `html` field; the other files are its assets, found by their names. The page may load only its assets and data: URLs: nothing from the network.',
    fields: ZHtmlFields,
    files: { field: 'files', min: 0, max: 100, description: 'The HTML page and its assets (images, CSS, fonts)' },
    response: fileAnswer,
    async handler({ request, reply, fields, files, job }) {
      const { site, name } = await uploadedSite(job, fields.html, files);
      const print = { ...printOptions(fields), ...pageChecksOf(fields) };
      const result = await convert.htmlToPdf(job, site.index, site.dir, print, fields);
      return sendPdf(request, reply, name, result);
    },
  });

  registerProcessingRoute(app, {
    path: '/url-to-pdf',
    group: 'conversion',
    noun: 'URL',
    summary: 'A web page to PDF (Chromium)',
    description:
      'Every address the page reaches (redirects, images, scripts, fetch, WebSocket) is checked: private, loopback and link-local targets are refused.',
    fields: ZUrlFields,
    files: { field: 'file', min: 0, max: 0, description: 'No file: send the `url` field' },
    response: fileAnswer,
    async handler({ request, reply, fields, job }) {
      const result = await convert.urlToPdf(
        job,
        fields.url,
        { ...printOptions(fields), ...pageChecksOf(fields), allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE },
        fields,
      );
      return sendPdf(request, reply, pageNameOf(fields.url), result);
    },
  });

  registerProcessingRoute(app, {
    path: '/html-to-image',
    group: 'conversion',
    noun: 'HTML',
    summary: 'HTML to an image: a screenshot (Chromium)',
    description:
      'The page as html-to-pdf takes it (`index.html` among `files`, the only HTML file, or the `html` field; the other files are its assets), captured as PNG, JPEG or WebP on a screen of `width` × `height`: the whole page, or with `clip` the screen only. Nothing is loaded from the network.',
    fields: ZHtmlImageFields,
    files: { field: 'files', min: 0, max: 100, description: 'The HTML page and its assets (images, CSS, fonts)' },
    response: imageAnswer,
    async handler({ request, reply, fields, files, job }) {
      const shot = { ...screenshotOptions(fields), ...pageChecksOf(fields) };
      const { site, name } = await uploadedSite(job, fields.html, files);
      const result = await toImage.htmlToImage(job, site.index, site.dir, shot, fields);
      return sendImage(request, reply, name, shot.format, result);
    },
  });

  registerProcessingRoute(app, {
    path: '/url-to-image',
    group: 'conversion',
    noun: 'URL',
    summary: 'A web page to an image: a screenshot (Chromium)',
    description:
      'The page captured as PNG, JPEG or WebP on a screen of `width` × `height`: the whole page, or with `clip` the screen only. Every address the page reaches is checked as on url-to-pdf: private, loopback and link-local targets are refused.',
    fields: ZUrlImageFields,
    files: { field: 'file', min: 0, max: 0, description: 'No file: send the `url` field' },
    response: imageAnswer,
    async handler({ request, reply, fields, job }) {
      const shot = { ...screenshotOptions(fields), ...pageChecksOf(fields) };
      const result = await toImage.urlToImage(
        job,
        fields.url,
        { ...shot, allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE },
        fields,
      );
      return sendImage(request, reply, pageNameOf(fields.url), shot.format, result);
    },
  });

  registerProcessingRoute(app, {
    path: '/markdown-to-pdf',
    group: 'conversion',
    noun: 'Markdown',
    summary: 'Markdown to PDF (rendered to HTML, printed by Chromium)',
    description:
      'One or more .md files (printed one after the other), or an index.html template whose `{{ toHTML "file.md" }}` placeholders take the Markdown files sent beside it; other files are assets found by their names. Raw HTML inside Markdown is shown as text.',
    fields: ZPrintFields,
    files: {
      field: 'files',
      min: 1,
      max: 50,
      description: 'The Markdown file(s), an optional index.html template, and assets',
    },
    response: fileAnswer,
    async handler({ request, reply, fields, files, job }) {
      const template = files.find((f) => /^index\.html?$/i.test(f.filename));
      const markdown = files.filter((f) => /\.(md|markdown)$/i.test(f.filename));
      if (!template && markdown.length === 0) {
        throw new AppError(
          'INVALID_INPUT',
          'files: send at least one .md file (or an index.html template with its .md files)',
          { details: { field: 'files' } },
        );
      }
      for (const f of markdown) await checkSource(f, 'markdown-to-pdf');
      const site = await htmlSite(
        job.ws,
        template ? { file: template } : { html: markdownTemplate(markdown.map((f) => assetName(f.filename))) },
        files.filter((f) => f !== template),
      );
      const html = await buildMarkdownHtml(site.index, site.dir);
      const result = await convert.htmlToPdf(job, html, site.dir, printOptions(fields), fields);
      return sendPdf(request, reply, (markdown[0] ?? template)!.filename, result);
    },
  });

  for (const [route, noun, summary] of [
    ['text-to-pdf', 'text', 'Plain text to PDF (UTF-8, UTF-16 or Latin-1; long lines wrap)'],
    ['epub-to-pdf', 'EPUB', 'EPUB e-books to PDF (chapters in spine order)'],
  ] as const) {
    registerProcessingRoute(app, {
      path: `/${route}`,
      group: 'conversion',
      noun,
      summary,
      fields: ZPrintFields,
      files: one(`The ${noun} file`),
      response: fileAnswer,
      async handler({ request, reply, fields, files, job }) {
        const result = await convertUpload(job, files[0]!, route, fields);
        return sendPdf(request, reply, files[0]!.filename, result);
      },
    });
  }

  registerProcessingRoute(app, {
    path: '/image-to-pdf',
    group: 'conversion',
    noun: 'image',
    summary: 'Images to PDF, one page per image',
    description: `Takes ${routeFormats['image-to-pdf'].join(', ')}; every page of a multi-page TIFF becomes a page. Pages in the order sent.`,
    fields: ZImageToPdfFields,
    files: { field: 'files', min: 1, max: 100, description: 'The images, 1 to 100' },
    response: fileAnswer,
    async handler({ request, reply, fields, files, job }) {
      if (job.maxPages !== null && files.length > job.maxPages) {
        throw new EngineError(
          'PAGE_LIMIT_EXCEEDED',
          `${files.length} images make ${files.length} pages; your plan allows at most ${job.maxPages} pages per PDF`,
          {
            details: { pages: files.length, maxPagesPerPdf: job.maxPages },
          },
        );
      }
      const sources = await Promise.all(
        files.map((f, i) =>
          checkSource(f, 'image-to-pdf', files.length > 1 ? `files[${i + 1}] ("${f.filename}")` : undefined),
        ),
      );
      const result = await convert.imagesToPdf(
        job,
        sources.map((s) => s.file.path),
        { pageSize: fields.pageSize, orientation: fields.orientation, margin: fields.margin },
        fields,
      );
      return sendPdf(request, reply, files[0]!.filename, result);
    },
  });

  registerProcessingRoute(app, {
    path: '/auto-to-pdf',
    group: 'conversion',
    noun: 'document',
    summary: 'Any supported document to PDF, its format detected from the bytes',
    description:
      'Detects the format (magic numbers, zip contents, text sniffing; see POST /conversion/detect) and converts as the matching route would, with its defaults. A PDF is answered as it is (with pageRange and pdfa applied).',
    fields: ZOfficeFields,
    files: one('The document'),
    response: fileAnswer,
    async handler({ request, reply, fields, files, job }) {
      const result = await convertUpload(job, files[0]!, 'auto-to-pdf', fields);
      return sendPdf(request, reply, files[0]!.filename, result);
    },
  });

  registerProcessingRoute(app, {
    path: '/batch-to-pdf',
    group: 'batch',
    noun: 'document',
    summary: 'Up to 50 documents to PDF in one call (zip with a manifest)',
    description:
      'Each file is detected and converted as auto-to-pdf would. The answer is a zip of the PDFs plus manifest.json listing every file with its result; a file that fails is listed with its error and does not fail the others.',
    fields: ZBatchFields,
    files: { field: 'files', min: 1, max: 50, description: 'The documents, 1 to 50' },
    response: fileAnswer,
    async handler({ request, reply, fields, files, job }) {
      const manifest: TBatchManifestEntry[] = [];
      const outputs: Array<{ path: string; name: string }> = [];
      const used = new Set<string>();
      let pages = 0;
      // One after another: the engines' own pools already use every core, and a batch must not crowd out other users.
      for (const file of files) {
        try {
          const { route, src } = await autoSource(file);
          const result = await convertSource(job, src, route, fields);
          let name = outputName(file.filename, 'converted', 'pdf').replace(/-converted\.pdf$/, '.pdf');
          for (let n = 2; used.has(name.toLowerCase()); n++) name = name.replace(/(?: \(\d+\))?\.pdf$/, ` (${n}).pdf`);
          used.add(name.toLowerCase());
          outputs.push({ path: result.path, name });
          pages += result.pages ?? 0;
          manifest.push({
            file: file.filename,
            ok: true,
            output: name,
            pages: result.pages,
            format: src.detected.format,
          });
          request.jobRun?.step({ name: file.filename, status: 'succeeded', pages: result.pages }, files.length);
        } catch (err) {
          // Refusals of this one file go to the manifest; a server fault or a client that left ends the batch.
          if (!(err instanceof EngineError || err instanceof AppError)) throw err;
          const e = toAppError(err);
          if (e.code === 'CLIENT_CLOSED_REQUEST') throw err;
          manifest.push({ file: file.filename, ok: false, code: e.code, error: e.message });
          request.jobRun?.step(
            { name: file.filename, status: 'failed', errorCode: e.code, message: e.message },
            files.length,
          );
        }
      }
      const manifestPath = job.ws.file('manifest.json');
      await writeFile(manifestPath, JSON.stringify({ files: manifest }, null, 2));
      request.usage.pages = pages;
      return sendZip(request, reply, [...outputs, { path: manifestPath, name: 'manifest.json' }], 'converted.zip', {
        pages,
        headers: { 'X-Converted-Count': outputs.length, 'X-Failed-Count': manifest.length - outputs.length },
      });
    },
  });

  app.get(
    '/formats',
    {
      ...app.processingGuard('conversion'),
      schema: {
        tags: ['conversion'],
        security: [{ apiKey: [] }],
        summary: 'The formats converted to PDF, the route for each, and whether this server has the engine for it',
        response: { 200: ZConversionFormatsResponse, 401: ZErrorResponse, 403: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async () => {
      const list = (Object.keys(routeFormats) as ConversionRoute[]).flatMap((route) =>
        routeFormats[route].map((format) => ({
          format,
          mimeType: formats[format]?.mime ?? 'application/octet-stream',
          category: formats[format]?.category ?? 'other',
          route: `/api/v1/conversion/${route}`,
          engine: routeOperation[route],
          available: app.engines.has(routeOperation[route]),
        })),
      );
      return {
        success: true as const,
        data: {
          formats: list,
          routes: (Object.keys(routeFormats) as ConversionRoute[]).map((route) => ({
            route: `/api/v1/conversion/${route}`,
            formats: [...routeFormats[route]],
          })),
        },
      };
    },
  );
}
