import { EngineError } from '../../errors';
import type { OutputFile, PdfJob, SourceFile } from '../pdf/job';
import { buildEpubHtml } from '../../convert/epub';
import { buildSite } from './build-site';
import { buildTextHtml } from '../../convert/text';
import { defaultPrintOptions, printOptions } from '../../convert/print-options';
import type { TPrintFields } from '@docflow/contracts';
import { checkSource, officeKindOf, routeForFormat, type CheckedSource, type ConversionRoute } from './sources';
import { detectFormat } from './detect-format';
import * as convert from './to-pdf';

/** The fields every conversion takes, and the office ones a route may add. */
export interface SourceFields {
  pageRange?: string;
  pdfa?: boolean;
  password?: string;
  landscape?: boolean;
  fitToPage?: boolean;
  /** Office documents: LibreOffice's PDF export options (OfficeConvertOptions). */
  exportOptions?: Record<string, boolean | number | string>;
}

/**
 * One source file to PDF, whatever route took it: office documents through LibreOffice, images through the image
 * engine, HTML and the formats rendered as HTML through Chromium, PDFs as they are (auto and batch only).
 */
export async function convertSource(
  job: PdfJob,
  src: CheckedSource,
  route: ConversionRoute | 'pdf',
  fields: SourceFields,
): Promise<OutputFile> {
  const finish = { pageRange: fields.pageRange, pdfa: fields.pdfa };
  if (route === 'pdf') return convert.finishPdf(job, src.file.path, 'converted', finish);
  const kind = officeKindOf[route];
  if (kind) {
    return convert.officeToPdf(job, src.file.path, {
      kind,
      password: fields.password,
      landscape: fields.landscape,
      fitToPage: fields.fitToPage,
      exportOptions: fields.exportOptions,
      ...finish,
    });
  }
  if (route === 'image-to-pdf')
    return convert.imagesToPdf(job, [src.file.path], { pageSize: 'A4', orientation: 'auto', margin: 0 }, finish);
  const print = defaultPrintOptions();
  if (route === 'html-to-pdf') {
    const site = await buildSite(job.ws, { page: { file: src.file }, assets: [], checked: true });
    return convert.htmlToPdf(job, site.html, site.dir, print, finish);
  }
  const built = await builtHtml(job, route, src.file);
  return convert.htmlToPdf(job, built.html, built.dir, print, finish);
}

/** The conversion routes that take exactly one uploaded file (and the pipeline's first stage may be). */
export const singleFileConversions = [
  'auto-to-pdf',
  'word-to-pdf',
  'excel-to-pdf',
  'powerpoint-to-pdf',
  'text-to-pdf',
  'epub-to-pdf',
] as const;
export type SingleFileConversion = (typeof singleFileConversions)[number];

/**
 * One uploaded file to PDF as `route` does it: checked against the route's formats (auto: detected and dispatched),
 * then converted; text and EPUB are printed with the route's paper fields.
 */
export async function convertUpload(
  job: PdfJob,
  file: SourceFile,
  route: SingleFileConversion,
  fields: SourceFields & Partial<TPrintFields>,
): Promise<OutputFile> {
  if (route === 'auto-to-pdf') {
    const auto = await autoSource(file);
    return convertSource(job, auto.src, auto.route, fields);
  }
  const src = await checkSource(file, route);
  if (route === 'text-to-pdf' || route === 'epub-to-pdf') {
    const built = await builtHtml(job, route, src.file);
    return convert.htmlToPdf(job, built.html, built.dir, printOptions(fields as TPrintFields), fields);
  }
  return convertSource(job, src, route, fields);
}

/** Markdown, text and EPUB become an HTML page (and its assets) in a fresh directory, printed by Chromium. */
export async function builtHtml(
  job: PdfJob,
  route: ConversionRoute,
  file: SourceFile,
): Promise<{ html: string; dir: string }> {
  const dir = await job.ws.subdir('built');
  if (route === 'epub-to-pdf') return { html: await buildEpubHtml(file.path, dir), dir };
  if (route === 'text-to-pdf') return { html: await buildTextHtml(file.path, dir), dir };
  if (route === 'markdown-to-pdf') {
    // A fixed name: the upload's own may lack the .md the template needs (auto-to-pdf detects from the bytes).
    return buildSite(job.ws, { assets: [{ ...file, filename: 'document.md' }], markdown: true, checked: true });
  }
  throw new EngineError('UNSUPPORTED_OPERATION', `${route} is not available on this server`, {});
}

/** The route a file goes to when the client did not say (auto-to-pdf, batch). */
export async function autoSource(file: SourceFile): Promise<{ route: ConversionRoute | 'pdf'; src: CheckedSource }> {
  const detected = await detectFormat(file.path, file.size, file.filename);
  if (detected.format === 'pdf') return { route: 'pdf', src: { file, detected } };
  const route = routeForFormat(detected.format);
  if (!route) {
    throw new EngineError(
      'UNSUPPORTED_FORMAT',
      `"${file.filename}" is ${detected.format ? `a ${detected.format.toUpperCase()} file` : 'of a format that could not be recognised'}, which cannot be converted to PDF; GET /api/v1/conversion/formats lists what can`,
      {
        details: { file: file.filename, detected: detected.format },
      },
    );
  }
  return { route, src: await checkSource(file, route, undefined, detected) };
}
