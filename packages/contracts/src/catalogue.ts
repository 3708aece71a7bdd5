import { z } from 'zod';
import {
  ZBatchFields,
  ZHtmlFields,
  ZHtmlImageFields,
  ZImageToPdfFields,
  ZOfficeFields,
  ZPrintFields,
  ZSpreadsheetFields,
  ZUrlFields,
  ZUrlImageFields,
} from './conversion';
import { ZOcrEnhancedFields, ZOcrExtractFields, ZOcrQualityFields, ZOcrSearchablePdfFields } from './ocr';
import { formEndpointFields } from './forms';
import { pdfEndpointFields } from './pdf';
import { signatureEndpointFields } from './signatures';
import { extractEndpointFields } from './extract';
import { ZPipelineFields } from './pipeline';
import { ZQrOptions, qrTypes } from './qrcode';
import {
  findEndpoint,
  processingEndpoints,
  type EndpointInfo,
  type TCatalogueGroup,
  type TCataloguePath,
} from './endpoints';
import type { TQrType } from './qr-types';

export * from './endpoints';

/**
 * The processing API's endpoint catalogue: every endpoint of endpoints.ts with its request fields, the same schemas
 * the server validates with. The API reference, the playground, the usage categories and the landing page read it.
 */
export interface CatalogueEntry<P extends string = string> extends EndpointInfo<P> {
  /** The non-file fields, as the server validates them; null for the GET listings. */
  fields: z.ZodObject | null;
}

/** A call that sends only its file. */
const ZNoFields = z.object({});

const qrFields = (type: TQrType) => (qrTypes[type].schema as z.ZodObject).extend(ZQrOptions.shape);

/** Every endpoint's fields: a path missing here is a type error. */
const fieldsOf = {
  ...pdfEndpointFields,
  ...formEndpointFields,
  ...signatureEndpointFields,
  ...extractEndpointFields,
  '/ping': null,
  '/conversion/auto-to-pdf': ZOfficeFields,
  '/conversion/word-to-pdf': ZOfficeFields,
  '/conversion/excel-to-pdf': ZSpreadsheetFields,
  '/conversion/powerpoint-to-pdf': ZOfficeFields,
  '/conversion/html-to-pdf': ZHtmlFields,
  '/conversion/url-to-pdf': ZUrlFields,
  '/conversion/html-to-image': ZHtmlImageFields,
  '/conversion/url-to-image': ZUrlImageFields,
  '/conversion/markdown-to-pdf': ZPrintFields,
  '/conversion/text-to-pdf': ZPrintFields,
  '/conversion/epub-to-pdf': ZPrintFields,
  '/conversion/image-to-pdf': ZImageToPdfFields,
  '/conversion/batch-to-pdf': ZBatchFields,
  '/conversion/detect': ZNoFields,
  '/conversion/formats': null,
  '/pipeline': ZPipelineFields,
  '/ocr/extract': ZOcrExtractFields,
  '/ocr/enhanced': ZOcrEnhancedFields,
  '/ocr/analyze-quality': ZOcrQualityFields,
  '/ocr/searchable-pdf': ZOcrSearchablePdfFields,
  '/ocr/languages': null,
  '/qrcode/url': qrFields('url'),
  '/qrcode/wifi': qrFields('wifi'),
  '/qrcode/contact': qrFields('contact'),
  '/qrcode/event': qrFields('event'),
  '/qrcode/location': qrFields('location'),
  '/qrcode/sms': qrFields('sms'),
  '/qrcode/email': qrFields('email'),
  '/qrcode/phone': qrFields('phone'),
  '/qrcode/text': qrFields('text'),
  '/qrcode/generic': qrFields('generic'),
  '/qrcode/types': null,
  '/qrcode/decode': ZNoFields,
} as const satisfies Record<TCataloguePath, z.ZodObject | null>;

/** The fields schema of one endpoint, typed as the server parses it. */
export type CatalogueFields<P extends TCataloguePath> = (typeof fieldsOf)[P];

export const endpointCatalogue: readonly CatalogueEntry<TCataloguePath>[] = processingEndpoints.map((e) => ({
  ...e,
  fields: fieldsOf[e.path],
}));

/** The entry of a path (under /api/v1, or with the /api/v1 prefix), if the catalogue has it. */
export function findCatalogueEntry(path: string, method?: CatalogueEntry['method']): CatalogueEntry | undefined {
  const info = findEndpoint(path, method);
  return info && endpointCatalogue.find((e) => e.path === info.path);
}

/** The entry of a path the catalogue surely has (a typo is a type error). */
export function catalogueEntry<P extends TCataloguePath>(path: P): CatalogueEntry<P> {
  return endpointCatalogue.find((e) => e.path === path) as CatalogueEntry<P>;
}

/** The entries of one endpoint group, in catalogue order. */
export const catalogueGroup = (group: TCatalogueGroup): CatalogueEntry[] =>
  endpointCatalogue.filter((e) => e.group === group);
