import sharp, { type Metadata } from 'sharp';
import type { PreparedImage } from './prepared-image';
import { iccComponents } from './prepared-image';
import { classifySharpError, idatOf, type DecodeLimits } from './raster';

interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  chunks: Set<string>;
}

/** The chunk types present and the IHDR fields; null when the chunk structure is broken. */
export function readPngHeader(buf: Buffer): PngHeader | null {
  if (buf.length < 33 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  const chunks = new Set<string>();
  for (let at = 8; at + 8 <= buf.length;) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (at + 12 + len > buf.length) return null;
    chunks.add(type);
    if (type === 'IEND') break;
    at += 12 + len;
  }
  if (!chunks.has('IEND') || !chunks.has('IDAT')) return null;
  return {
    width: buf.readUInt32BE(16),
    height: buf.readUInt32BE(20),
    bitDepth: buf[24]!,
    colorType: buf[25]!,
    interlace: buf[28]!,
    chunks,
  };
}

/**
 * An 8-bit grey or RGB PNG, not interlaced, without transparency or EXIF orientation, goes into the PDF without being
 * re-encoded: its IDAT is already what PDF's Flate filter with the PNG predictors reads (as img2pdf does). It is
 * still decoded once, to a few pixels, so a corrupt file is refused rather than copied. Others return null and are
 * converted by sharp.
 */
export async function passThroughPng(
  buf: Buffer,
  meta: Metadata,
  dpi: number,
  limits: DecodeLimits,
  label: string,
): Promise<PreparedImage | null> {
  const h = readPngHeader(buf);
  if (!h || h.bitDepth !== 8 || (h.colorType !== 0 && h.colorType !== 2) || h.interlace !== 0) return null;
  if (h.chunks.has('tRNS') || (meta.orientation ?? 1) !== 1) return null;
  try {
    await sharp(buf, { failOn: 'error', limitInputPixels: limits.maxPixels })
      .resize(8)
      .raw()
      .timeout({ seconds: limits.timeoutSeconds })
      .toBuffer();
  } catch (err) {
    throw classifySharpError(err, label);
  }
  const components = h.colorType === 0 ? 1 : 3;
  const icc = meta.icc && iccComponents(meta.icc) === components ? meta.icc : undefined;
  return {
    width: h.width,
    height: h.height,
    components,
    filter: 'FlateDecode',
    data: idatOf(buf),
    ...(icc ? { icc } : {}),
    orientation: 1,
    widthPt: (h.width * 72) / dpi,
    heightPt: (h.height * 72) / dpi,
  };
}
