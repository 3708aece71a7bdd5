import type { z } from 'zod';
import type { TEndpointGroup } from './common';
import {
  ZBatchFields,
  ZHtmlFields,
  ZImageToPdfFields,
  ZOfficeFields,
  ZPrintFields,
  ZSpreadsheetFields,
  ZUrlFields,
} from './conversion';
import { ZOcrEnhancedFields, ZOcrExtractFields, ZOcrQualityFields, ZOcrSearchablePdfFields } from './ocr';
import {
  ZCompressPdfFields,
  ZDeletePagesFields,
  ZExtractImagesFields,
  ZExtractPagesFields,
  ZExtractTextFields,
  ZMergePdfFields,
  ZMetadataUpdateFields,
  ZPageNumbersFields,
  ZPasswordOnlyFields,
  ZProtectPdfFields,
  ZReorderPdfFields,
  ZRotatePdfFields,
  ZSplitPdfFields,
  ZToImagesFields,
  ZUnlockPdfFields,
  ZWatermarkPdfFields,
} from './pdf';
import { ZQrOptions, qrTypes, type TQrType } from './qrcode';

/**
 * The processing API's endpoint catalogue: every route that takes an API key, with the endpoint group its plan gate
 * checks, the summary the API reference shows, and its request fields (the same schemas the server validates with).
 * The API reference, the playground, the usage categories and the landing page read it; a test checks the routes
 * the server registers are exactly these.
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

export interface CatalogueEntry<P extends string = string> {
  method: 'GET' | 'POST';
  /** The path under /api/v1. */
  path: P;
  group: TCatalogueGroup;
  summary: string;
  /** How the request carries its fields: multipart form, JSON body, or nothing (GET). */
  body: 'multipart' | 'json' | 'none';
  /** The non-file fields, as the server validates them; null when the route takes none. */
  fields: z.ZodObject | null;
  /** Uploaded files; absent when the route takes none. */
  files?: CatalogueFiles;
}

const oneFile: CatalogueFiles = { field: 'file', min: 1, max: 1 };

const upload = <P extends string>(
  group: TEndpointGroup,
  path: P,
  summary: string,
  fields: z.ZodObject | null,
  files: CatalogueFiles = oneFile,
): CatalogueEntry<P> => ({ method: 'POST', path, group, summary, body: 'multipart', fields, files });

const listing = <P extends string>(group: TCatalogueGroup, path: P, summary: string): CatalogueEntry<P> => ({
  method: 'GET',
  path,
  group,
  summary,
  body: 'none',
  fields: null,
});

const qrRoute = <T extends TQrType>(type: T): CatalogueEntry<`/qrcode/${T}`> => ({
  method: 'POST',
  path: `/qrcode/${type}`,
  group: 'qrcode',
  summary: `QR code: ${qrTypes[type].description.toLowerCase()}`,
  body: 'json',
  fields: (qrTypes[type].schema as z.ZodObject).extend(ZQrOptions.shape),
});

export const endpointCatalogue = [
  listing(ANY_ENDPOINT_GROUP, '/ping', 'Check an API key and see what is left of its limits'),

  upload(
    'conversion',
    '/conversion/auto-to-pdf',
    'Any supported document to PDF, its format detected from the bytes',
    ZOfficeFields,
  ),
  upload('conversion', '/conversion/word-to-pdf', 'Word processing documents to PDF', ZOfficeFields),
  upload('conversion', '/conversion/excel-to-pdf', 'Spreadsheets to PDF', ZSpreadsheetFields),
  upload('conversion', '/conversion/powerpoint-to-pdf', 'Presentations to PDF', ZOfficeFields),
  upload('conversion', '/conversion/html-to-pdf', 'HTML to PDF (Chromium)', ZHtmlFields, {
    field: 'files',
    min: 0,
    max: 100,
  }),
  upload('conversion', '/conversion/url-to-pdf', 'A web page to PDF (Chromium)', ZUrlFields, {
    field: 'file',
    min: 0,
    max: 0,
  }),
  upload(
    'conversion',
    '/conversion/markdown-to-pdf',
    'Markdown to PDF (rendered to HTML, printed by Chromium)',
    ZPrintFields,
    {
      field: 'files',
      min: 1,
      max: 50,
    },
  ),
  upload(
    'conversion',
    '/conversion/text-to-pdf',
    'Plain text to PDF (UTF-8, UTF-16 or Latin-1; long lines wrap)',
    ZPrintFields,
  ),
  upload('conversion', '/conversion/epub-to-pdf', 'EPUB e-books to PDF (chapters in spine order)', ZPrintFields),
  upload('conversion', '/conversion/image-to-pdf', 'Images to PDF, one page per image', ZImageToPdfFields, {
    field: 'files',
    min: 1,
    max: 100,
  }),
  upload(
    'batch',
    '/conversion/batch-to-pdf',
    'Up to 50 documents to PDF in one call (zip with a manifest)',
    ZBatchFields,
    {
      field: 'files',
      min: 1,
      max: 50,
    },
  ),
  upload(
    'conversion',
    '/conversion/detect',
    'Detect the format of an uploaded file (magic numbers, zip contents, text sniffing) with a confidence',
    null,
  ),
  listing(
    'conversion',
    '/conversion/formats',
    'The formats converted to PDF, the route for each, and whether this server has the engine for it',
  ),

  upload('pdf', '/pdf/merge', 'Merge 2-20 PDFs into one', ZMergePdfFields, { field: 'files', min: 2, max: 20 }),
  upload('pdf', '/pdf/split', 'Split a PDF into several (zip)', ZSplitPdfFields),
  upload('pdf', '/pdf/extract-pages', 'Keep only some pages', ZExtractPagesFields),
  upload('pdf', '/pdf/delete-pages', 'Remove pages', ZDeletePagesFields),
  upload('pdf', '/pdf/rotate', 'Rotate pages by 90, 180 or 270 degrees clockwise', ZRotatePdfFields),
  upload('pdf', '/pdf/reorder', 'Put the pages in a new order', ZReorderPdfFields),
  upload('pdf', '/pdf/watermark', 'Add a text or image watermark', ZWatermarkPdfFields),
  upload('pdf', '/pdf/page-numbers', 'Number the pages', ZPageNumbersFields),
  upload('pdf', '/pdf/protect', 'Encrypt with AES-256 and set permissions', ZProtectPdfFields),
  upload('pdf', '/pdf/unlock', 'Remove the password and restrictions', ZUnlockPdfFields),
  upload('pdf', '/pdf/metadata', 'Read the document information', ZPasswordOnlyFields),
  upload('pdf', '/pdf/metadata/update', 'Write the document information', ZMetadataUpdateFields),
  upload(
    'pdf',
    '/pdf/analyze',
    'Pages, sizes, version, encryption, fonts, images, forms, text or scanned, size breakdown',
    ZPasswordOnlyFields,
  ),
  upload('pdf', '/pdf/extract-text', 'Text per page, with word boxes on request', ZExtractTextFields),
  upload('pdf', '/pdf/compress', 'Make the file smaller (never larger)', ZCompressPdfFields),
  upload(
    'pdf',
    '/pdf/compression-analysis',
    'Estimated size per compression level, image and font weight, a recommendation',
    ZPasswordOnlyFields,
  ),
  upload('pdf', '/pdf/to-images', 'Render pages to PNG or JPEG (one image, or a zip)', ZToImagesFields),
  upload('pdf', '/pdf/extract-images', 'Extract the embedded images (zip)', ZExtractImagesFields),
  upload('pdf', '/pdf/flatten', 'Burn form fields and annotations into the pages', ZPasswordOnlyFields),
  upload('pdf', '/pdf/repair', 'Rebuild a damaged PDF where possible', ZPasswordOnlyFields),
  upload('pdf', '/pdf/to-pdfa', 'Convert to PDF/A-2b (archival)', ZPasswordOnlyFields),

  upload(
    'ocr',
    '/ocr/extract',
    'Text of an image or a scanned PDF: per page lines (and words) with boxes and confidence',
    ZOcrExtractFields,
  ),
  upload(
    'ocr',
    '/ocr/enhanced',
    'OCR of poor scans: deskew, denoise, binarize, upscale; several passes, the most confident kept',
    ZOcrEnhancedFields,
  ),
  upload(
    'ocr',
    '/ocr/analyze-quality',
    'How fit a scan is for OCR: resolution, contrast, blur, skew, a 0-100 score and advice',
    ZOcrQualityFields,
  ),
  upload(
    'ocr',
    '/ocr/searchable-pdf',
    'A PDF with an invisible text layer over the original pages',
    ZOcrSearchablePdfFields,
  ),
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
  upload('qrcode', '/qrcode/decode', 'Find and decode the QR codes (and barcodes) in an image', null, {
    field: 'image',
    min: 1,
    max: 1,
  }),
] as const;

export type TCataloguePath = (typeof endpointCatalogue)[number]['path'];
export type TCatalogueEntry = (typeof endpointCatalogue)[number];

/** The entry of a path (under /api/v1, or with the /api/v1 prefix), if the catalogue has it. */
export function findCatalogueEntry(path: string, method?: CatalogueEntry['method']): CatalogueEntry | undefined {
  const clean = path.replace(/^\/api\/v1(?=\/)/, '');
  return endpointCatalogue.find((e) => e.path === clean && (method === undefined || e.method === method));
}

/** The entry of a path the catalogue surely has (a typo is a type error). */
export function catalogueEntry<P extends TCataloguePath>(path: P): CatalogueEntry<P> {
  return endpointCatalogue.find((e) => e.path === path) as CatalogueEntry<P>;
}

/** The entries of one endpoint group, in catalogue order. */
export const catalogueGroup = (group: TCatalogueGroup): CatalogueEntry[] =>
  endpointCatalogue.filter((e) => e.group === group);
