import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { EngineError } from '../../errors';
import { DEFAULT_DPI } from './layout';
import type { PreparedImage } from './prepared-image';

export interface DecodeLimits {
  maxPixels: number;
  timeoutSeconds: number;
}

/** What a client hears when sharp refuses a file: the pixel cap, a timeout, or a damaged image. */
export function classifySharpError(err: unknown, label: string): EngineError {
  if (err instanceof EngineError) return err;
  const msg = (err as Error)?.message ?? '';
  if (/pixel limit/i.test(msg)) {
    return new EngineError('INVALID_INPUT', `${label} has more pixels than allowed per image (IMAGES_MAX_PIXELS)`, {
      cause: err,
      details: { field: 'files' },
    });
  }
  if (/timeout/i.test(msg))
    return new EngineError('TIMEOUT', `${label} took too long to decode and was stopped`, { cause: err });
  const e = new EngineError('INVALID_DOCUMENT', `${label} is damaged or truncated and could not be read`, {
    cause: err,
    details: { field: 'files' },
  });
  e.documentFault = true;
  return e;
}

/** Resolution in dpi when the file states one with a unit; otherwise the default. */
export function dpiOf(meta: Pick<Metadata, 'density' | 'resolutionUnit'>): number {
  const d = meta.density;
  return meta.resolutionUnit && d && d >= 1 && d <= 100_000 ? d : DEFAULT_DPI;
}

/** The whole PNG file's IDAT data: zlib data of filtered rows, which PDF's Flate filter with predictor 15 takes as is. */
export function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + len));
    if (type === 'IEND') break;
    at += 12 + len;
  }
  return Buffer.concat(parts);
}

export const isGrey = (m: Pick<Metadata, 'space' | 'channels'>) =>
  m.space === 'b-w' || m.space === 'grey16' || m.channels <= 2;

/**
 * Decode with sharp (off the event loop), turn upright from EXIF, flatten transparency onto white (the page is white),
 * convert to 8-bit sRGB or grey (CMYK, 16-bit, palettes, Lab…), and re-encode as non-interlaced PNG whose IDAT goes
 * into the PDF unchanged.
 */
export async function rasterize(
  input: Buffer,
  opts: SharpOptions,
  meta: { grey: boolean; widthPt?: number; heightPt?: number; dpi: number },
  limits: DecodeLimits,
  label: string,
): Promise<PreparedImage> {
  try {
    const { data, info } = await sharp(input, {
      failOn: 'error',
      limitInputPixels: limits.maxPixels,
      autoOrient: true,
      ...opts,
    })
      .flatten({ background: '#ffffff' })
      .toColourspace(meta.grey ? 'b-w' : 'srgb')
      .png({ compressionLevel: 6, adaptiveFiltering: false, palette: false, progressive: false, force: true })
      .timeout({ seconds: limits.timeoutSeconds })
      .toBuffer({ resolveWithObject: true });
    const components = info.channels === 1 ? 1 : 3;
    // The PDF dictionary says 8 bits per component: anything else would be drawn as noise.
    if (info.channels !== components || data[24] !== 8)
      throw new Error(`unexpected PNG layout: ${info.channels} channels, ${data[24]} bits`);
    return {
      width: info.width,
      height: info.height,
      components,
      filter: 'FlateDecode',
      data: idatOf(data),
      orientation: 1,
      widthPt: meta.widthPt ?? (info.width * 72) / meta.dpi,
      heightPt: meta.heightPt ?? (info.height * 72) / meta.dpi,
    };
  } catch (err) {
    throw classifySharpError(err, label);
  }
}
