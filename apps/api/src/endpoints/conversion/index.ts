import { writeFile } from 'node:fs/promises';
import type { z } from 'zod';
import {
  ZFileResultResponse,
  ZSpreadsheetFields,
  type TBatchManifestEntry,
  type TScreenshotFields,
} from '@docflow/contracts';
import { AppError } from '../../lib/app-error';
import { baseName, outputName } from '../../lib/send-result';
import { fileOutcome, zipOutcome } from '../../lib/outcome';
import type { UploadedFile } from '../../lib/uploads';
import * as convert from '../../core/operations/convert/to-pdf';
import * as toImage from '../../core/operations/convert/to-image';
import { autoSource, convertSource, convertUpload } from '../../core/operations/convert/convert-source';
import { buildSite } from '../../core/operations/convert/build-site';
import { printOptions } from '../../core/convert/print-options';
import { checkSource, routeFormats } from '../../core/operations/convert/sources';
import { EngineError } from '../../core/errors';
import type { PageChecks, ScreenshotOptions } from '../../core/operations/convert/interfaces';
import type { OutputFile, PdfJob } from '../../core/operations/pdf/job';
import { runSteps, type Step } from '../../core/operations/run-steps';
import { callError } from '../call-errors';
import { detectEndpoint } from './detect';
import { defineEndpoint, type CallMeter, type FileDoc, type ProcessingEndpoint } from '../processing-endpoint';

const fileAnswer = ZFileResultResponse.describe(
  'The PDF itself with Content-Disposition; with Accept: application/json, this JSON',
);

/** The converted PDF, named after the source; its pages go to the usage meter. */
function pdfOutcome(meter: CallMeter, from: string, file: OutputFile) {
  meter.pages = file.pages;
  return fileOutcome({
    path: file.path,
    fileName: outputName(from, file.name, 'pdf').replace(/-converted\.pdf$/, '.pdf'),
    mimeType: 'application/pdf',
    pages: file.pages,
  });
}

const one = (description: string): FileDoc => ({ description });

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
  const site = await buildSite(job.ws, {
    page: page ? { file: page } : { html: html ?? '' },
    assets: files.filter((f) => f !== page),
  });
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
function imageOutcome(from: string, format: TScreenshotFields['format'], file: OutputFile) {
  const fileName = `${baseName(from, 'page')}.${toImage.imageExtension(format)}`;
  return fileOutcome({ path: file.path, fileName, mimeType: `image/${format}` });
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
function officeEndpoint(route: 'word-to-pdf' | 'excel-to-pdf' | 'powerpoint-to-pdf'): ProcessingEndpoint {
  return defineEndpoint(`/conversion/${route}`, {
    noun: 'document',
    description: `Takes ${routeFormats[route].join(', ')} (detected from the bytes). Converted by LibreOffice; macros never run and linked content is never fetched.`,
    files: one(`The document (${routeFormats[route].join(', ')})`),
    response: fileAnswer,
    async run({ meter, fields: f, files, job }) {
      const result = await convertUpload(job, files[0]!, route, f as z.output<typeof ZSpreadsheetFields>);
      return pdfOutcome(meter, files[0]!.filename, result);
    },
  });
}

/** What the conversion endpoints are told by the operator. */
export interface ConversionSettings {
  /** URL conversions may reach private addresses (an intranet deployment). */
  allowPrivate: boolean;
}

/** The conversion endpoints, in the catalogue's order. */
export const conversionEndpoints = ({ allowPrivate }: ConversionSettings): readonly ProcessingEndpoint[] => [
  officeEndpoint('word-to-pdf'),
  officeEndpoint('excel-to-pdf'),
  officeEndpoint('powerpoint-to-pdf'),

  defineEndpoint('/conversion/html-to-pdf', {
    noun: 'HTML',
    description:
      'The page is `index.html` among `files` (or the only HTML file), or the `html` field; the other files are its assets, found by their names. The page may load only its assets and data: URLs: nothing from the network.',
    files: { description: 'The HTML page and its assets (images, CSS, fonts)' },
    response: fileAnswer,
    async run({ meter, fields, files, job }) {
      const { site, name } = await uploadedSite(job, fields.html, files);
      const print = { ...printOptions(fields), ...pageChecksOf(fields) };
      const result = await convert.htmlToPdf(job, site.html, site.dir, print, fields);
      return pdfOutcome(meter, name, result);
    },
  }),

  defineEndpoint('/conversion/url-to-pdf', {
    noun: 'URL',
    description:
      'Every address the page reaches (redirects, images, scripts, fetch, WebSocket) is checked: private, loopback and link-local targets are refused.',
    files: { description: 'No file: send the `url` field' },
    response: fileAnswer,
    async run({ meter, fields, job }) {
      const result = await convert.urlToPdf(
        job,
        fields.url,
        { ...printOptions(fields), ...pageChecksOf(fields), allowPrivate },
        fields,
      );
      return pdfOutcome(meter, pageNameOf(fields.url), result);
    },
  }),

  defineEndpoint('/conversion/html-to-image', {
    noun: 'HTML',
    description:
      'The page as html-to-pdf takes it (`index.html` among `files`, the only HTML file, or the `html` field; the other files are its assets), captured as PNG, JPEG or WebP on a screen of `width` × `height`: the whole page, or with `clip` the screen only. Nothing is loaded from the network.',
    files: { description: 'The HTML page and its assets (images, CSS, fonts)' },
    response: imageAnswer,
    async run({ fields, files, job }) {
      const shot = { ...screenshotOptions(fields), ...pageChecksOf(fields) };
      const { site, name } = await uploadedSite(job, fields.html, files);
      const result = await toImage.htmlToImage(job, site.html, site.dir, shot, fields);
      return imageOutcome(name, shot.format, result);
    },
  }),

  defineEndpoint('/conversion/url-to-image', {
    noun: 'URL',
    description:
      'The page captured as PNG, JPEG or WebP on a screen of `width` × `height`: the whole page, or with `clip` the screen only. Every address the page reaches is checked as on url-to-pdf: private, loopback and link-local targets are refused.',
    files: { description: 'No file: send the `url` field' },
    response: imageAnswer,
    async run({ fields, job }) {
      const shot = { ...screenshotOptions(fields), ...pageChecksOf(fields) };
      const result = await toImage.urlToImage(job, fields.url, { ...shot, allowPrivate }, fields);
      return imageOutcome(pageNameOf(fields.url), shot.format, result);
    },
  }),

  defineEndpoint('/conversion/markdown-to-pdf', {
    noun: 'Markdown',
    description:
      'One or more .md files (printed one after the other), or an index.html template whose `{{ toHTML "file.md" }}` placeholders take the Markdown files sent beside it; other files are assets found by their names. Raw HTML inside Markdown is shown as text.',
    files: { description: 'The Markdown file(s), an optional index.html template, and assets' },
    response: fileAnswer,
    async run({ meter, fields, files, job }) {
      const template = files.find((f) => /^index\.html?$/i.test(f.filename));
      const markdown = files.filter((f) => /\.(md|markdown)$/i.test(f.filename));
      if (!template && markdown.length === 0) {
        throw new AppError(
          'INVALID_INPUT',
          'files: send at least one .md file (or an index.html template with its .md files)',
          { details: { field: 'files' } },
        );
      }
      const site = await buildSite(job.ws, {
        page: template && { file: template },
        assets: files.filter((f) => f !== template),
        markdown: true,
      });
      const result = await convert.htmlToPdf(job, site.html, site.dir, printOptions(fields), fields);
      return pdfOutcome(meter, (markdown[0] ?? template)!.filename, result);
    },
  }),

  ...(
    [
      ['text-to-pdf', 'text'],
      ['epub-to-pdf', 'EPUB'],
    ] as const
  ).map(([route, noun]) =>
    defineEndpoint(`/conversion/${route}`, {
      noun,
      files: one(`The ${noun} file`),
      response: fileAnswer,
      async run({ meter, fields, files, job }) {
        const result = await convertUpload(job, files[0]!, route, fields);
        return pdfOutcome(meter, files[0]!.filename, result);
      },
    }),
  ),

  defineEndpoint('/conversion/image-to-pdf', {
    noun: 'image',
    description: `Takes ${routeFormats['image-to-pdf'].join(', ')}; every page of a multi-page TIFF becomes a page. Pages in the order sent.`,
    files: { description: 'The images, 1 to 100' },
    response: fileAnswer,
    async run({ meter, fields, files, job }) {
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
      return pdfOutcome(meter, files[0]!.filename, result);
    },
  }),

  defineEndpoint('/conversion/auto-to-pdf', {
    noun: 'document',
    description:
      'Detects the format (magic numbers, zip contents, text sniffing; see POST /conversion/detect) and converts as the matching route would, with its defaults. A PDF is answered as it is (with pageRange and pdfa applied).',
    files: one('The document'),
    response: fileAnswer,
    async run({ meter, fields, files, job }) {
      const result = await convertUpload(job, files[0]!, 'auto-to-pdf', fields);
      return pdfOutcome(meter, files[0]!.filename, result);
    },
  }),

  defineEndpoint('/conversion/batch-to-pdf', {
    noun: 'document',
    description:
      'Each file is detected and converted as auto-to-pdf would. The answer is a zip of the PDFs plus manifest.json listing every file with its result; a file that fails is listed with its error and does not fail the others.',
    files: { description: 'The documents, 1 to 50' },
    response: fileAnswer,
    async run({ meter, step, fields, files, job }) {
      const manifest: TBatchManifestEntry[] = [];
      const outputs: Array<{ path: string; name: string }> = [];
      const used = new Set<string>();
      let pages = 0;
      // One after another: the engines' own pools already use every core, and a batch must not crowd out other users.
      for (const file of files) {
        try {
          let format: string | null = null;
          const conversion: Step = {
            label: 'convert',
            async run(job, input) {
              const { route, src } = await autoSource(input);
              format = src.detected.format;
              return convertSource(job, src, route, fields);
            },
          };
          const { output: result } = await runSteps(job, file, [conversion]);
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
            format,
          });
          step?.({ name: file.filename, status: 'succeeded', pages: result.pages }, files.length);
        } catch (err) {
          // Refusals of this one file go to the manifest; a server fault or a client that left ends the batch.
          if (!(err instanceof EngineError || err instanceof AppError)) throw err;
          const e = callError(err);
          if (e.code === 'CLIENT_CLOSED_REQUEST') throw err;
          manifest.push({ file: file.filename, ok: false, code: e.code, error: e.message });
          step?.({ name: file.filename, status: 'failed', errorCode: e.code, message: e.message }, files.length);
        }
      }
      const manifestPath = job.ws.file('manifest.json');
      await writeFile(manifestPath, JSON.stringify({ files: manifest }, null, 2));
      meter.pages = pages;
      return zipOutcome([...outputs, { path: manifestPath, name: 'manifest.json' }], 'converted.zip', {
        pages,
        headers: { 'X-Converted-Count': outputs.length, 'X-Failed-Count': manifest.length - outputs.length },
      });
    },
  }),
  detectEndpoint,
];
