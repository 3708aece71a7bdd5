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
}

const oneFile: CatalogueFiles = { field: 'file', min: 1, max: 1 };

const upload = <P extends string>(
  group: TEndpointGroup,
  path: P,
  summary: string,
  files: CatalogueFiles = oneFile,
): EndpointInfo<P> => ({ method: 'POST', path, group, summary, body: 'multipart', files });

const listing = <P extends string>(group: TCatalogueGroup, path: P, summary: string): EndpointInfo<P> => ({
  method: 'GET',
  path,
  group,
  summary,
  body: 'none',
});

const qrRoute = <T extends TQrType>(type: T): EndpointInfo<`/qrcode/${T}`> => ({
  method: 'POST',
  path: `/qrcode/${type}`,
  group: 'qrcode',
  summary: `QR code: ${qrTypeInfo[type].description.toLowerCase()}`,
  body: 'json',
});

export const processingEndpoints = [
  listing(ANY_ENDPOINT_GROUP, '/ping', 'Check an API key and see what is left of its limits'),

  upload('conversion', '/conversion/auto-to-pdf', 'Any supported document to PDF, its format detected from the bytes'),
  upload('conversion', '/conversion/word-to-pdf', 'Word processing documents to PDF'),
  upload('conversion', '/conversion/excel-to-pdf', 'Spreadsheets to PDF'),
  upload('conversion', '/conversion/powerpoint-to-pdf', 'Presentations to PDF'),
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
  upload('conversion', '/conversion/text-to-pdf', 'Plain text to PDF (UTF-8, UTF-16 or Latin-1; long lines wrap)'),
  upload('conversion', '/conversion/epub-to-pdf', 'EPUB e-books to PDF (chapters in spine order)'),
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
  upload(
    'conversion',
    '/conversion/detect',
    'Detect the format of an uploaded file (magic numbers, zip contents, text sniffing) with a confidence',
  ),
  listing(
    'conversion',
    '/conversion/formats',
    'The formats converted to PDF, the route for each, and whether this server has the engine for it',
  ),

  upload('pdf', '/pdf/merge', 'Merge 2-20 PDFs into one', { field: 'files', min: 2, max: 20 }),
  upload('pdf', '/pdf/split', 'Split a PDF into several (zip)'),
  upload('pdf', '/pdf/extract-pages', 'Keep only some pages'),
  upload('pdf', '/pdf/delete-pages', 'Remove pages'),
  upload('pdf', '/pdf/rotate', 'Rotate pages by 90, 180 or 270 degrees clockwise'),
  upload('pdf', '/pdf/reorder', 'Put the pages in a new order'),
  upload('pdf', '/pdf/watermark', 'Add a text or image watermark'),
  upload('pdf', '/pdf/page-numbers', 'Number the pages'),
  upload('pdf', '/pdf/protect', 'Encrypt with AES-256 and set permissions'),
  upload('pdf', '/pdf/unlock', 'Remove the password and restrictions'),
  upload('pdf', '/pdf/metadata', 'Read the document information'),
  upload('pdf', '/pdf/metadata/update', 'Write the document information'),
  upload(
    'pdf',
    '/pdf/analyze',
    'Pages, sizes, version, encryption, fonts, images, forms, text or scanned, size breakdown',
  ),
  upload('pdf', '/pdf/extract-text', 'Text per page, with word boxes on request'),
  upload('pdf', '/pdf/compress', 'Make the file smaller (never larger)'),
  upload(
    'pdf',
    '/pdf/compression-analysis',
    'Estimated size per compression level, image and font weight, a recommendation',
  ),
  upload('pdf', '/pdf/to-images', 'Render pages to PNG or JPEG (one image, or a zip)'),
  upload('pdf', '/pdf/extract-images', 'Extract the embedded images (zip)'),
  upload('pdf', '/pdf/flatten', 'Burn form fields and annotations into the pages'),
  upload('pdf', '/pdf/repair', 'Rebuild a damaged PDF where possible'),
  upload('pdf', '/pdf/to-pdfa', 'Convert to PDF/A-2b (archival)'),
  upload('pdf', '/pdf/crop', 'Crop pages to a box or to their content, or scale them to a paper size'),
  upload('pdf', '/pdf/remove-blank-pages', 'Remove blank pages (no text, next to no ink), scanned ones included'),
  upload(
    'pdf',
    '/pipeline',
    'One upload through several stages in one call: a conversion to PDF, then PDF operations (watermark, page numbers, protect…)',
  ),

  upload(
    'ocr',
    '/ocr/extract',
    'Text of an image or a scanned PDF: per page lines (and words) with boxes and confidence',
  ),
  upload(
    'ocr',
    '/ocr/enhanced',
    'OCR of poor scans: deskew, denoise, binarize, upscale; several passes, the most confident kept',
  ),
  upload(
    'ocr',
    '/ocr/analyze-quality',
    'How fit a scan is for OCR: resolution, contrast, blur, skew, a 0-100 score and advice',
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
  upload('qrcode', '/qrcode/decode', 'Find and decode the QR codes (and barcodes) in an image', {
    field: 'image',
    min: 1,
    max: 1,
  }),
] as const;

export type TCataloguePath = (typeof processingEndpoints)[number]['path'];

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
