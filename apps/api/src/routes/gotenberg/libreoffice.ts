import type { FastifyInstance } from 'fastify';
import { convertSource } from '../../core/operations/convert/convert-source';
import { detectFormat } from '../../core/operations/convert/detect-format';
import { checkSource, routeFormats, type ConversionRoute } from '../../core/operations/convert/sources';
import { EngineError } from '../../core/errors';
import { mergePdfs } from '../../core/operations/pdf/merge';
import { FINISHING_DOCS, fieldDocs } from './field-docs';
import { readEmbeds } from './embeds';
import { checkCompatible, finish, readFinishing, type Finishing } from './finishing';
import type { GotenbergForm } from './form';
import { conversionOutputs, uuidName, type NamedFile } from './output';
import { asNativePageRanges } from './native-page-ranges';
import { gotenbergRoute } from './route';

/**
 * Gotenberg's POST /forms/libreoffice/convert on DocFlow's office conversion (the same LibreOffice pool as
 * /conversion/*-to-pdf), counted and metered as /conversion/auto-to-pdf: the format of each file is detected from its
 * bytes. Several files answer a zip of "<name>.pdf" files, or one PDF with merge=true; the finishing fields (split,
 * flatten, PDF/A, metadata, encryption) apply as in Gotenberg.
 */

const officeRoutes = ['word-to-pdf', 'excel-to-pdf', 'powerpoint-to-pdf'] as const;
const officeFormats = officeRoutes.flatMap((r) => routeFormats[r]);

/** A Gotenberg field passed to LibreOffice's PDF export filter: its name there, and what it takes. */
type ExportField =
  | { filter: string; kind: 'bool' }
  | { filter: string; kind: 'int'; valid: (n: number) => boolean; expected: string }
  | { filter: string; kind: 'string' };

const bool = (filter: string): ExportField => ({ filter, kind: 'bool' });
const oneOf = (filter: string, values: number[]): ExportField => ({
  filter,
  kind: 'int',
  valid: (n) => values.includes(n),
  expected: values.join(', '),
});
const atLeast = (filter: string, min: number): ExportField => ({
  filter,
  kind: 'int',
  valid: (n) => n >= min,
  expected: `${min} or more`,
});

/**
 * Gotenberg's LibreOffice export fields (pkg/modules/libreoffice/routes.go) and the PDF export filter option each
 * sets (its --export names), with Gotenberg's checks. Only the fields sent are passed: the others keep LibreOffice's
 * defaults, which are Gotenberg's.
 */
const exportFields: Record<string, ExportField> = {
  exportFormFields: bool('ExportFormFields'),
  allowDuplicateFieldNames: bool('AllowDuplicateFieldNames'),
  exportBookmarks: bool('ExportBookmarks'),
  exportBookmarksToPdfDestination: bool('ExportBookmarksToPDFDestination'),
  exportPlaceholders: bool('ExportPlaceholders'),
  exportNotes: bool('ExportNotes'),
  exportNotesPages: bool('ExportNotesPages'),
  exportOnlyNotesPages: bool('ExportOnlyNotesPages'),
  exportNotesInMargin: bool('ExportNotesInMargin'),
  convertOooTargetToPdfTarget: bool('ConvertOOoTargetToPDFTarget'),
  exportLinksRelativeFsys: bool('ExportLinksRelativeFsys'),
  exportHiddenSlides: bool('ExportHiddenSlides'),
  skipEmptyPages: bool('IsSkipEmptyPages'),
  addOriginalDocumentAsStream: bool('IsAddStream'),
  singlePageSheets: bool('SinglePageSheets'),
  initialView: oneOf('InitialView', [0, 1, 2]),
  initialPage: atLeast('InitialPage', 1),
  magnification: oneOf('Magnification', [0, 1, 2, 3, 4]),
  zoom: atLeast('Zoom', 1),
  pageLayout: oneOf('PageLayout', [0, 1, 2, 3]),
  firstPageOnLeft: bool('FirstPageOnLeft'),
  resizeWindowToInitialPage: bool('ResizeWindowToInitialPage'),
  centerWindow: bool('CenterWindow'),
  openInFullScreenMode: bool('OpenInFullScreenMode'),
  displayPDFDocumentTitle: bool('DisplayPDFDocumentTitle'),
  hideViewerMenubar: bool('HideViewerMenubar'),
  hideViewerToolbar: bool('HideViewerToolbar'),
  hideViewerWindowControls: bool('HideViewerWindowControls'),
  useTransitionEffects: bool('UseTransitionEffects'),
  openBookmarkLevels: {
    filter: 'OpenBookmarkLevels',
    kind: 'int',
    valid: (n) => n === -1 || (n >= 1 && n <= 10),
    expected: '-1 or 1 to 10',
  },
  losslessImageCompression: bool('UseLosslessCompression'),
  quality: { filter: 'Quality', kind: 'int', valid: (n) => n >= 1 && n <= 100, expected: '1 to 100' },
  reduceImageResolution: bool('ReduceImageResolution'),
  maxImageResolution: oneOf('MaxImageResolution', [75, 150, 300, 600, 1200]),
  nativeWatermarkText: { filter: 'Watermark', kind: 'string' },
  nativeWatermarkColor: atLeast('WatermarkColor', 0),
  nativeWatermarkFontHeight: atLeast('WatermarkFontHeight', 0),
  nativeWatermarkRotateAngle: atLeast('WatermarkRotateAngle', 0),
  nativeWatermarkFontName: { filter: 'WatermarkFontName', kind: 'string' },
  nativeTiledWatermarkText: { filter: 'TiledWatermark', kind: 'string' },
};

/**
 * Fields Gotenberg reads that change nothing in DocFlow's result: updateIndexes (LibreOffice's export updates
 * them), nativePdfFormats (PDF/A is written by DocFlow's PDF/A engine either way).
 */
const acceptedAsIs = ['updateIndexes', 'nativePdfFormats'];

function readExportOptions(form: GotenbergForm): Record<string, boolean | number | string> {
  const options: Record<string, boolean | number | string> = {};
  for (const [key, field] of Object.entries(exportFields)) {
    if (form.raw(key) === undefined) continue;
    if (field.kind === 'bool') options[field.filter] = form.bool(key, false);
    else if (field.kind === 'string') options[field.filter] = form.string(key);
    else {
      const n = form.integer(key, 0);
      if (!field.valid(n)) form.fail(key, `is invalid (got '${form.raw(key)}'): expected ${field.expected}`);
      options[field.filter] = n;
    }
  }
  for (const key of acceptedAsIs) form.bool(key, true);
  return options;
}

/**
 * pdfua: LibreOffice exports the document tagged and PDF/UA-compliant (UseTaggedPDF, PDFUACompliance), and then writes
 * the PDF/A part asked itself (SelectPdfVersion), since DocFlow's PDF/A rewrite would drop the tags it made.
 */
function withTaggedExport(finishing: Finishing, options: Record<string, boolean | number | string>): Finishing {
  if (!finishing.pdfua) return finishing;
  options.UseTaggedPDF = true;
  options.PDFUACompliance = true;
  if (!finishing.pdfa) return finishing;
  options.SelectPdfVersion = finishing.pdfa;
  return { ...finishing, pdfa: undefined };
}

/** The office route a detected format converts through (text and CSV included, as LibreOffice opens them). */
function officeRouteOf(format: string | null): ConversionRoute | undefined {
  return officeRoutes.find((r) => format !== null && (routeFormats[r] as readonly string[]).includes(format));
}

export function libreOfficeRoutes(app: FastifyInstance): void {
  gotenbergRoute(app, {
    path: '/forms/libreoffice/convert',
    summary: 'Office documents to PDF (LibreOffice)',
    fields: fieldDocs(
      [
        '`files` (Office documents, text, images…), `merge`, `password`, `landscape`, `nativePageRanges`, the LibreOffice export options (`quality`, `maxImageResolution`, `singlePageSheets`, `skipEmptyPages`, `exportNotes`, viewer settings, `nativeWatermark*`…)',
      ],
      FINISHING_DOCS,
    ),
    meterAs: { group: 'conversion', endpoint: '/conversion/auto-to-pdf' },
    // Each document is its own conversion, counted as one call of /conversion/auto-to-pdf.
    files: { min: 1, max: 43, perFile: true, extraFields: ['watermark', 'stamp', 'facturxXml', 'embeds'] },
    async handler({ form, files, extras, job, meter }) {
      const password = form.string('password') || undefined;
      const landscape = form.bool('landscape', false);
      const pageRange = form.string('nativePageRanges') || undefined;
      const merge = form.bool('merge', false);
      const exportOptions = readExportOptions(form);
      const read: Finishing = { ...readFinishing(form, extras), embeds: readEmbeds(form, extras) };
      form.check();
      checkCompatible(read);
      const finishing = withTaggedExport(read, exportOptions);

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
          return { route, src: await checkSource(file, route, `'${file.filename}'`, detected) };
        }),
      );
      // One after another: the LibreOffice pool already uses every core, and other users share it.
      const converted: NamedFile[] = [];
      for (const { route, src } of sources) {
        const pdf = await asNativePageRanges(
          convertSource(job, src, route, { password, landscape, pageRange, exportOptions }),
          () =>
            `LibreOffice could not apply the page ranges '${pageRange}' to the document '${src.file.filename}'. Check the 'nativePageRanges' form field; valid values look like '1-4', '2' or '1,3,5-7'.`,
        );
        converted.push({ path: pdf.path, name: `${src.file.filename}.pdf`, pages: pdf.pages });
      }
      let outputs = converted;
      if (merge && converted.length > 1) {
        const m = await mergePdfs(
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
      meter.pages = done.reduce((n, o) => n + (o.pages ?? 0), 0);
      return conversionOutputs(done, finishing);
    },
  });
}
