import { promisify } from 'node:util';
import { deflate as zlibDeflate } from 'node:zlib';
import { EngineError } from '../../errors';

const deflate = promisify(zlibDeflate);
import type { StreamingPdfWriter } from './pdf-writer';

/** One page's image, ready to be written as an image XObject. */
export interface PreparedImage {
  /** Stored pixel size. */
  width: number;
  height: number;
  components: 1 | 3;
  filter: 'DCTDecode' | 'FlateDecode';
  /** DCT: the JPEG file; Flate: zlib data of PNG-filtered rows (a PNG's IDAT). */
  data: Buffer;
  /** JPEG with an Adobe marker saying the three components are RGB, not YCbCr. */
  noColorTransform?: boolean;
  /** An embedded ICC profile matching `components` (kept for JPEGs embedded as they are). */
  icc?: Buffer;
  /** EXIF orientation still to apply when drawing (1 when the pixels were already turned). */
  orientation: number;
  /** Displayed size in points (after orientation), from the image's resolution. */
  widthPt: number;
  heightPt: number;
}

/** Components an ICC profile describes, from its header's colour space signature. */
export function iccComponents(icc: Buffer): number | null {
  if (icc.length < 132) return null;
  const sig = icc.toString('latin1', 16, 20);
  return sig === 'RGB ' ? 3 : sig === 'GRAY' ? 1 : sig === 'CMYK' ? 4 : null;
}

/** Write the image XObject (and its ICC profile); returns the XObject's number. */
export async function writeImageXObject(w: StreamingPdfWriter, img: PreparedImage): Promise<number> {
  let colorSpace = img.components === 1 ? '/DeviceGray' : '/DeviceRGB';
  if (img.icc && iccComponents(img.icc) === img.components) {
    const alternate = img.components === 1 ? '/DeviceGray' : '/DeviceRGB';
    const icc = await w.add(
      `<</N ${img.components}/Alternate${alternate}/Filter/FlateDecode>>`,
      await deflate(img.icc),
    );
    colorSpace = `[/ICCBased ${icc} 0 R]`;
  }
  const params =
    img.filter === 'FlateDecode'
      ? `/DecodeParms<</Predictor 15/Colors ${img.components}/BitsPerComponent 8/Columns ${img.width}>>`
      : img.noColorTransform
        ? '/DecodeParms<</ColorTransform 0>>'
        : '';
  return w.add(
    `<</Type/XObject/Subtype/Image/Width ${img.width}/Height ${img.height}/ColorSpace${colorSpace}/BitsPerComponent 8/Filter/${img.filter}${params}>>`,
    img.data,
  );
}

/** The pixel cap, checked from the header before anything is decoded. */
export function checkPixels(width: number, height: number, maxPixels: number, label: string): void {
  if (width * height > maxPixels) {
    throw new EngineError(
      'INVALID_INPUT',
      `${label} is ${width}×${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels allowed per image (IMAGES_MAX_PIXELS)`,
      { details: { field: 'files', width, height, maxPixels } },
    );
  }
}
