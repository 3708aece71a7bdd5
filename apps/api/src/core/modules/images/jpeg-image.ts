import sharp from 'sharp';
import { EngineError } from '../../errors';
import { swapsAxes } from './layout';
import { embeddableAsIs, readJpegHeader } from './jpeg-header';
import { checkPixels, iccComponents, type PreparedImage } from './prepared-image';
import { classifySharpError, dpiOf, isGrey, rasterize, type DecodeLimits } from './raster';

/**
 * A JPEG goes into the PDF byte for byte when a PDF reader can decode it (8-bit baseline or progressive, grey or
 * RGB): no generation loss, no time spent encoding. EXIF orientation is then applied by the drawing matrix. Others
 * (CMYK/YCCK, 12-bit, arithmetic-coded, lossless) are converted by sharp.
 */
export async function prepareJpeg(buf: Buffer, limits: DecodeLimits, label: string): Promise<PreparedImage> {
  const header = readJpegHeader(buf);
  if (!header) {
    throw new EngineError('INVALID_DOCUMENT', `${label} is a damaged JPEG (its header could not be read)`, {
      details: { field: 'files' },
    });
  }
  checkPixels(header.width, header.height, limits.maxPixels, label);
  let meta;
  try {
    meta = await sharp(buf, { limitInputPixels: limits.maxPixels }).metadata();
  } catch (err) {
    throw classifySharpError(err, label);
  }
  const dpi = dpiOf(meta);
  if (!embeddableAsIs(header)) return rasterize(buf, {}, { grey: isGrey(meta), dpi }, limits, label);

  if (!header.complete) {
    throw new EngineError('INVALID_DOCUMENT', `${label} is a truncated JPEG (the file ends before the image does)`, {
      details: { field: 'files' },
    });
  }
  await validateEntropyData(buf, header.width, limits, label);
  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const [w, h] = swapsAxes(orientation) ? [header.height, header.width] : [header.width, header.height];
  const icc = meta.icc && iccComponents(meta.icc) === header.components ? meta.icc : undefined;
  return {
    width: header.width,
    height: header.height,
    components: header.components as 1 | 3,
    filter: 'DCTDecode',
    data: buf,
    ...(header.components === 3 && header.adobeTransform === 0 ? { noColorTransform: true } : {}),
    ...(icc ? { icc } : {}),
    orientation,
    widthPt: (w * 72) / dpi,
    heightPt: (h * 72) / dpi,
  };
}

/**
 * Decoding at 1/8 scale still reads every entropy-coded segment, so corrupt data is caught cheaply (~20 ms for 3 MP)
 * before the bytes are copied into the PDF, where a viewer would draw them as garbage. libjpeg reports corrupt data as
 * warnings; only "extraneous bytes before marker", which many cameras write and every viewer ignores, is let through.
 */
async function validateEntropyData(buf: Buffer, width: number, limits: DecodeLimits, label: string): Promise<void> {
  const decode = (failOn: 'warning' | 'error') =>
    sharp(buf, { failOn, limitInputPixels: limits.maxPixels })
      .resize({ width: Math.max(1, Math.ceil(width / 8)), fastShrinkOnLoad: true })
      .raw()
      .timeout({ seconds: limits.timeoutSeconds })
      .toBuffer();
  try {
    await decode('warning');
  } catch (err) {
    if (!/extraneous bytes/i.test((err as Error)?.message ?? '')) throw classifySharpError(err, label);
    await decode('error').catch((e: unknown) => {
      throw classifySharpError(e, label);
    });
  }
}
