// No zod here: the landing page lists the endpoints without loading the schemas (catalogue.ts adds them).
import type { TEndpointGroup } from './common';
import { qrTypeInfo, type TQrType } from './qr-types';

/**
 * The processing API's endpoints: every route that takes an API key, with the endpoint group its plan gate checks,
 * the summary the API reference shows, how it takes its input and how many files. catalogue.ts joins each to the
 * schema of its fields; a test checks the routes the server registers are exactly these.
 */

/** The pseudo-group of routes every plan may call (GET /ping). */
export const ANY_ENDPOINT_GROUP = '*' as const;
export type TCatalogueGroup = TEndpointGroup | typeof ANY_ENDPOINT_GROUP;

/** Where the uploaded files go: the multipart field and how many the route takes. */
export interface CatalogueFiles {
  field: 'file' | 'files' | 'image';
  min: number;
  max: number;
}

export interface EndpointInfo<P extends string = string> {
  method: 'GET' | 'POST';
  /** The path under /api/v1. */
  path: P;
  group: TCatalogueGroup;
  summary: string;
  /** How the request carries its fields: multipart form, JSON body, or nothing (GET). */
  body: 'multipart' | 'json' | 'none';
  /** Uploaded files; absent when the route takes none. */
  files?: CatalogueFiles;
  /**
   * Where a pipeline may run it: `first` (a conversion of the upload to PDF, first stage only) or `pdf` (a PDF in,
   * a PDF out, at any stage); absent when a pipeline cannot.
   */
  stage?: PipelineStageKind;
  /**
   * What a success answers: `file` (the document or image itself; its JSON form on Accept: application/json) or
   * `data` (JSON only). The playground's forms and code samples read it.
   */
  answer: 'file' | 'data';
}

/**
 * first: a conversion, the first stage only; pdf: a PDF-to-PDF operation anywhere after; last: a PDF operation that
 * only others of its kind may follow (a signature, a time-stamp: any other later stage would change the signed bytes
 * and break it; another signature or time-stamp is an incremental update that keeps it).
 */
export type PipelineStageKind = 'first' | 'pdf' | 'last';

const oneFile: CatalogueFiles = { field: 'file', min: 1, max: 1 };

const upload = <P extends string, S extends PipelineStageKind | undefined = undefined>(
  group: TEndpointGroup,
  path: P,
  summary: string,
  files: CatalogueFiles = oneFile,
  stage?: S,
): EndpointInfo<P> & { stage: S } => ({
  method: 'POST',
  path,
  group,
  summary,
  body: 'multipart',
  files,
  stage: stage!,
  answer: 'file',
});

/** A route that answers JSON data rather than a file. */
const answersData = <E extends EndpointInfo>(e: E): E => ({ ...e, answer: 'data' });

/** A PDF in, a PDF out: also a pipeline stage. */
const pdfStage = <P extends string>(path: P, summary: string) => upload('pdf', path, summary, oneFile, 'pdf');

/** One upload converted to PDF: also a pipeline's first stage. */
const conversionStage = <P extends string>(path: P, summary: string) =>
  upload('conversion', path, summary, oneFile, 'first');

const listing = <P extends string>(group: TCatalogueGroup, path: P, summary: string): EndpointInfo<P> => ({
  method: 'GET',
  path,
  group,
  summary,
  body: 'none',
  answer: 'data',
});

const qrRoute = <T extends TQrType>(type: T): EndpointInfo<`/qrcode/${T}`> => ({
  method: 'POST',
  path: `/qrcode/${type}`,
  group: 'qrcode',
  summary: `QR code: ${qrTypeInfo[type].description.toLowerCase()}`,
  body: 'json',
  answer: 'file',
});

export const processingEndpoints = [
  listing(ANY_ENDPOINT_GROUP, '/ping', 'Check an API key and see what is left of its limits'),

  conversionStage('/conversion/auto-to-pdf', 'Any supported document to PDF, its format detected from the bytes'),
  conversionStage('/conversion/word-to-pdf', 'Word processing documents to PDF'),
  conversionStage('/conversion/excel-to-pdf', 'Spreadsheets to PDF'),
  conversionStage('/conversion/powerpoint-to-pdf', 'Presentations to PDF'),
  upload('conversion', '/conversion/html-to-pdf', 'HTML to PDF (Chromium)', { field: 'files', min: 0, max: 100 }),
  upload('conversion', '/conversion/url-to-pdf', 'A web page to PDF (Chromium)', { field: 'file', min: 0, max: 0 }),
  upload('conversion', '/conversion/html-to-image', 'HTML to an image: a screenshot (Chromium)', {
    field: 'files',
    min: 0,
    max: 100,
  }),
  upload('conversion', '/conversion/url-to-image', 'A web page to an image: a screenshot (Chromium)', {
    field: 'file',
    min: 0,
    max: 0,
  }),
  upload('conversion', '/conversion/markdown-to-pdf', 'Markdown to PDF (rendered to HTML, printed by Chromium)', {
    field: 'files',
    min: 1,
    max: 50,
  }),
  conversionStage('/conversion/text-to-pdf', 'Plain text to PDF (UTF-8, UTF-16 or Latin-1; long lines wrap)'),
  conversionStage('/conversion/epub-to-pdf', 'EPUB e-books to PDF (chapters in spine order)'),
  upload('conversion', '/conversion/image-to-pdf', 'Images to PDF, one page per image', {
    field: 'files',
    min: 1,
    max: 100,
  }),
  upload('batch', '/conversion/batch-to-pdf', 'Up to 50 documents to PDF in one call (zip with a manifest)', {
    field: 'files',
    min: 1,
    max: 50,
  }),
  answersData(
    upload(
      'conversion',
      '/conversion/detect',
      'Detect the format of an uploaded file (magic numbers, zip contents, text sniffing) with a confidence',
    ),
  ),
  listing(
    'conversion',
    '/conversion/formats',
    'The formats converted to PDF, the route for each, and whether this server has the engine for it',
  ),

  upload('pdf', '/pdf/merge', 'Merge 2-20 PDFs into one', { field: 'files', min: 2, max: 20 }),
  upload('pdf', '/pdf/split', 'Split a PDF into several (zip)'),
  pdfStage('/pdf/extract-pages', 'Keep only some pages'),
  pdfStage('/pdf/delete-pages', 'Remove pages'),
  pdfStage('/pdf/rotate', 'Rotate pages by 90, 180 or 270 degrees clockwise'),
  pdfStage('/pdf/reorder', 'Put the pages in a new order'),
  pdfStage('/pdf/watermark', 'Add a text or image watermark'),
  pdfStage('/pdf/page-numbers', 'Number the pages'),
  pdfStage('/pdf/protect', 'Encrypt with AES-256 and set permissions'),
  pdfStage('/pdf/unlock', 'Remove the password and restrictions'),
  answersData(upload('pdf', '/pdf/metadata', 'Read the document information')),
  pdfStage('/pdf/metadata/update', 'Write the document information'),
  answersData(
    upload(
      'pdf',
      '/pdf/analyze',
      'Pages, sizes, version, encryption, fonts, images, forms, text or scanned, size breakdown',
    ),
  ),
  answersData(upload('pdf', '/pdf/extract-text', 'Text per page, with word boxes on request')),
  upload(
    'pdf',
    '/pdf/to-markdown',
    'Markdown of a PDF or any convertible document: headings, paragraphs in reading order, lists, tables; scans OCR-ed',
  ),
  answersData(
    upload(
      'pdf',
      '/pdf/to-json',
      'Blocks of a document (heading, paragraph, list item, table) with boxes, fonts, sizes',
    ),
  ),
  upload(
    'pdf',
    '/pdf/tables',
    'Every table of a document as CSV (one file, or a ZIP of one per table) or XLSX (a sheet per table)',
  ),
  pdfStage('/pdf/compress', 'Make the file smaller (never larger)'),
  answersData(
    upload(
      'pdf',
      '/pdf/compression-analysis',
      'Estimated size per compression level, image and font weight, a recommendation',
    ),
  ),
  upload('pdf', '/pdf/to-images', 'Render pages to PNG or JPEG (one image, or a zip)'),
  upload('pdf', '/pdf/extract-images', 'Extract the embedded images (zip)'),
  pdfStage('/pdf/flatten', 'Burn form fields and annotations into the pages'),
  upload('pdf', '/pdf/repair', 'Rebuild a damaged PDF where possible'),
  pdfStage('/pdf/to-pdfa', 'Convert to PDF/A-2b (archival)'),
  pdfStage('/pdf/crop', 'Crop pages to a box or to their content, or scale them to a paper size'),
  pdfStage('/pdf/add-margins', 'Add white margins around the pages (binding, notes, printers that clip)'),
  pdfStage('/pdf/redact', 'Redact text and areas: the content under them is removed, not only covered'),
  pdfStage('/pdf/remove-blank-pages', 'Remove blank pages (no text, next to no ink), scanned ones included'),
  pdfStage(
    '/pdf/auto-rotate',
    'Turn sideways and upside-down pages upright (their orientation read on the rendered page)',
  ),
  answersData(
    upload(
      'pdf',
      '/pdf/forms/fields',
      'List the fields of a fillable form: type, value, options, flags, page and place',
    ),
  ),
  pdfStage('/pdf/forms/fill', 'Fill a form from JSON (Unicode values drawn in), optionally flattened'),
  upload('pdf', '/pdf/forms/merge', 'Mail merge: fill one form once per row (JSON or CSV), a zip of PDFs or one PDF'),
  upload(
    'pdf',
    '/pdf/sign',
    'Sign with a PKCS#12 certificate: PAdES (CAdES detached), visible or not, incremental',
    oneFile,
    'last',
  ),
  upload(
    'pdf',
    '/pdf/timestamp',
    "A document time-stamp (RFC 3161) from the server's time-stamp authority, incremental",
    oneFile,
    'last',
  ),
  answersData(
    upload(
      'pdf',
      '/pdf/verify-signatures',
      'Every signature of a PDF: signer, time, integrity, what was changed after, trust',
    ),
  ),
  upload(
    'pdf',
    '/pipeline',
    'One upload through several stages in one call: a conversion to PDF, then PDF operations (watermark, page numbers, protect…)',
  ),

  answersData(
    upload(
      'ocr',
      '/ocr/extract',
      'Text of an image or a scanned PDF: per page lines (and words) with boxes and confidence',
    ),
  ),
  answersData(
    upload(
      'ocr',
      '/ocr/enhanced',
      'OCR of poor scans: deskew, denoise, binarize, upscale; several passes, the most confident kept',
    ),
  ),
  answersData(
    upload(
      'ocr',
      '/ocr/analyze-quality',
      'How fit a scan is for OCR: resolution, contrast, blur, skew, a 0-100 score and advice',
    ),
  ),
  upload('ocr', '/ocr/searchable-pdf', 'A PDF with an invisible text layer over the original pages'),
  listing('ocr', '/ocr/languages', 'The installed OCR languages (codes for the `languages` field)'),

  qrRoute('url'),
  qrRoute('wifi'),
  qrRoute('contact'),
  qrRoute('event'),
  qrRoute('location'),
  qrRoute('sms'),
  qrRoute('email'),
  qrRoute('phone'),
  qrRoute('text'),
  qrRoute('generic'),
  listing('qrcode', '/qrcode/types', 'The QR code types, their fields and the common options'),
  answersData(
    upload('qrcode', '/qrcode/decode', 'Find and decode the QR codes (and barcodes) in an image', {
      field: 'image',
      min: 1,
      max: 1,
    }),
  ),
] as const;

export type TCataloguePath = (typeof processingEndpoints)[number]['path'];

/** The paths a pipeline stage of `kind` may run, in catalogue order. */
export type TStagePath<K extends PipelineStageKind> = Extract<
  (typeof processingEndpoints)[number],
  { stage: K }
>['path'];

export const stagePaths = <K extends PipelineStageKind>(kind: K): TStagePath<K>[] =>
  processingEndpoints.filter((e) => e.stage === kind).map((e) => e.path as TStagePath<K>);

/** The endpoint of a path (under /api/v1, or with the /api/v1 prefix), if there is one. */
export function findEndpoint(path: string, method?: EndpointInfo['method']): EndpointInfo | undefined {
  const clean = path.replace(/^\/api\/v1(?=\/)/, '');
  return processingEndpoints.find((e) => e.path === clean && (method === undefined || e.method === method));
}

/** The endpoint of a path that surely exists (a typo is a type error). */
export function endpointAt<P extends TCataloguePath>(path: P): EndpointInfo<P> {
  return processingEndpoints.find((e) => e.path === path) as EndpointInfo<P>;
}

/** How many files the route takes at most (0 when it takes none). */
export const maxFilesOf = (path: TCataloguePath): number => endpointAt(path).files?.max ?? 0;
