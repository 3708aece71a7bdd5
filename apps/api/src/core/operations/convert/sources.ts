import path from 'node:path';
import { EngineError } from '../../errors';
import type { OfficeKind } from './interfaces';
import type { SourceFile } from '../pdf/job';
import { detectFormat, formats, type DetectedFormat } from './detect-format';

/** Each conversion route and the formats it takes (detected from the bytes, never from the name alone). */
export const routeFormats = {
  'word-to-pdf': ['doc', 'docx', 'odt', 'fodt', 'rtf', 'txt', 'wpd'],
  'excel-to-pdf': ['xls', 'xlsx', 'ods', 'fods', 'csv'],
  'powerpoint-to-pdf': ['ppt', 'pptx', 'ppsx', 'odp', 'fodp'],
  'html-to-pdf': ['html'],
  'markdown-to-pdf': ['md', 'txt'],
  'text-to-pdf': ['txt', 'md', 'csv'],
  'image-to-pdf': ['jpg', 'png', 'gif', 'bmp', 'tif', 'webp', 'svg', 'heic'],
  'epub-to-pdf': ['epub'],
} as const satisfies Record<string, readonly string[]>;
export type ConversionRoute = keyof typeof routeFormats;

/** The engine operation behind each route (for GET /conversion/formats: available or not on this server). */
export const routeOperation: Record<ConversionRoute, 'convertOffice' | 'renderHtml' | 'imagesToPdf'> = {
  'word-to-pdf': 'convertOffice',
  'excel-to-pdf': 'convertOffice',
  'powerpoint-to-pdf': 'convertOffice',
  'html-to-pdf': 'renderHtml',
  'markdown-to-pdf': 'renderHtml',
  'text-to-pdf': 'renderHtml',
  'image-to-pdf': 'imagesToPdf',
  'epub-to-pdf': 'renderHtml',
};

export const officeKindOf: Partial<Record<ConversionRoute, OfficeKind>> = {
  'word-to-pdf': 'document',
  'excel-to-pdf': 'spreadsheet',
  'powerpoint-to-pdf': 'presentation',
};

export interface CheckedSource {
  file: SourceFile;
  detected: DetectedFormat;
}

/**
 * What the upload is, and whether `route` takes it: a file of another kind is a 415 naming what the route takes
 * and, when there is one, the route that does take it.
 */
export async function checkSource(
  file: SourceFile,
  route: ConversionRoute,
  label = `"${file.filename}"`,
  known?: DetectedFormat,
): Promise<CheckedSource> {
  if (file.size === 0)
    throw new EngineError('INVALID_INPUT', `${label} is empty (0 bytes)`, { details: { file: file.filename } });
  const detected = known ?? (await detectFormat(file.path, file.size, file.filename));
  const valid: readonly string[] = routeFormats[route];
  if (!detected.format || !valid.includes(detected.format)) {
    const what = detected.format
      ? `a ${detected.format.toUpperCase()} file`
      : 'of a format that could not be recognised';
    const hint =
      detected.route && detected.route !== `/conversion/${route}` ? `; use POST /api/v1${detected.route}` : '';
    throw new EngineError('UNSUPPORTED_FORMAT', `${label} is ${what}; ${route} takes ${valid.join(', ')}${hint}`, {
      details: { file: file.filename, detected: detected.format, valid },
    });
  }
  return { file, detected };
}

/** The route auto-to-pdf hands a detected format to (null: nothing converts it). */
export function routeForFormat(format: string | null): ConversionRoute | null {
  const route = format ? formats[format]?.route : null;
  return route ? (route.replace('/conversion/', '') as ConversionRoute) : null;
}

/** A reasonable file name for an asset: its base name, made safe (assets are looked up by their names). */
export function assetName(name: string): string {
  return (
    path
      .basename(name)
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '') || 'asset'
  );
}
