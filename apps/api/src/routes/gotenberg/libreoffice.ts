import type { FastifyInstance } from 'fastify';
import { convertSource } from '../../core/convert/convert-source';
import { detectFormat } from '../../core/convert/detect-format';
import { checkSource, officeKindOf, routeFormats, type ConversionRoute } from '../../core/convert/sources';
import { EngineError } from '../../core/errors';
import * as ops from '../../core/pdf/operations';
import { finish, readFinishing } from './finishing';
import { asGotenbergField, isFalse, isTrue, type GotenbergForm } from './form';
import { conversionOutputs, uuidName, type NamedFile } from './output';
import { gotenbergRoute } from './route';

/**
 * Gotenberg's POST /forms/libreoffice/convert on DocFlow's office conversion (the same LibreOffice pool as
 * /conversion/*-to-pdf), counted and metered as /conversion/auto-to-pdf: the format of each file is detected from its
 * bytes. Several files answer a zip of "<name>.pdf" files, or one PDF with merge=true; the finishing fields (split,
 * flatten, PDF/A, metadata, encryption) apply as in Gotenberg.
 */

const officeRoutes = ['word-to-pdf', 'excel-to-pdf', 'powerpoint-to-pdf'] as const;
const officeFormats = officeRoutes.flatMap((r) => routeFormats[r]);

/**
 * LibreOffice export options of Gotenberg that DocFlow's converter does not expose, with Gotenberg's default: a client
 * sending the default is served, any other value is refused by name.
 */
const exportDefaults: Record<string, (v: string) => boolean> = {
  exportFormFields: isTrue,
  allowDuplicateFieldNames: isFalse,
  exportBookmarks: isTrue,
  exportBookmarksToPdfDestination: isFalse,
  exportPlaceholders: isFalse,
  exportNotes: isFalse,
  exportNotesPages: isFalse,
  exportOnlyNotesPages: isFalse,
  exportNotesInMargin: isFalse,
  convertOooTargetToPdfTarget: isFalse,
  exportLinksRelativeFsys: isFalse,
  exportHiddenSlides: isFalse,
  skipEmptyPages: isFalse,
  addOriginalDocumentAsStream: isFalse,
  singlePageSheets: isFalse,
  losslessImageCompression: isFalse,
  quality: (v) => Number(v) === 90,
  reduceImageResolution: isFalse,
  maxImageResolution: (v) => Number(v) === 300,
  updateIndexes: isTrue,
  nativePdfFormats: isTrue,
};

function readUnsupported(form: GotenbergForm): void {
  for (const [key, isDefault] of Object.entries(exportDefaults)) form.unsupported(key, isDefault);
}

/** The office route a detected format converts through (text and CSV included, as LibreOffice opens them). */
function officeRouteOf(format: string | null): ConversionRoute | undefined {
  return officeRoutes.find((r) => format !== null && (routeFormats[r] as readonly string[]).includes(format));
}

export function libreOfficeRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/libreoffice/convert',
    summary: 'Office documents to PDF (LibreOffice)',
    fields:
      '`files` (Office documents, text, images…), `merge`, `password`, `landscape`, `nativePageRanges`, `metadata` (JSON), `flatten`, `pdfa` (PDF/A-2b), `pdfua` (false), `splitMode`/`splitSpan`/`splitUnify`, `userPassword`/`ownerPassword`',
    meterAs: { group: 'conversion', endpoint: '/conversion/auto-to-pdf' },
    // Each document is its own conversion, counted as one call of /conversion/auto-to-pdf.
    files: { min: 1, max: 20, perFile: true },
    async handler({ form, files, job, request }) {
      const password = form.string('password') || undefined;
      const landscape = form.bool('landscape', false);
      const pageRange = form.string('nativePageRanges') || undefined;
      const merge = form.bool('merge', false);
      readUnsupported(form);
      const finishing = readFinishing(form);
      form.check();

      // Every file checked before any is converted: a wrong one fails the request at once.
      const sources = await Promise.all(
        files.map(async (file) => {
          const detected = await detectFormat(file.path, file.size, file.filename);
          const route = officeRouteOf(detected.format);
          if (!route) {
            throw new EngineError(
              'UNSUPPORTED_FORMAT',
              `'${file.filename}' is ${detected.format ? `a ${detected.format.toUpperCase()} file` : 'of a format that could not be recognised'}; LibreOffice converts ${officeFormats.join(', ')}`,
              { details: { file: file.filename, detected: detected.format } },
            );
          }
          if (landscape && officeKindOf[route] !== 'spreadsheet') {
            throw new EngineError(
              'INVALID_INPUT',
              `Invalid form data: form field 'landscape' is applied by DocFlow to spreadsheets only ('${file.filename}' is not one)`,
            );
          }
          return { route, src: await checkSource(file, route, `'${file.filename}'`, detected) };
        }),
      );
      // One after another: the LibreOffice pool already uses every core, and other users share it.
      const converted: NamedFile[] = [];
      for (const { route, src } of sources) {
        const pdf = await asGotenbergField(
          convertSource(job, src, route, { password, landscape, pageRange }),
          'pageRange',
          'nativePageRanges',
        );
        converted.push({ path: pdf.path, name: `${src.file.filename}.pdf`, pages: pdf.pages });
      }
      let outputs = converted;
      if (merge && converted.length > 1) {
        const m = await ops.mergePdfs(
          job,
          converted.map((c) => ({
            ...c,
            filename: c.name,
            size: 0,
            pages: c.pages ?? 0,
            wasEncrypted: false,
            version: null,
          })),
        );
        outputs = [{ path: m.path, name: uuidName(), pages: m.pages }];
      }
      const done = await finish(job, outputs, finishing);
      request.usage.pages = done.reduce((n, o) => n + (o.pages ?? 0), 0);
      return conversionOutputs(done, finishing);
    },
  });
}
