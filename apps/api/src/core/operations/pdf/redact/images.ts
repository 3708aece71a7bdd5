import sharp from 'sharp';
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  decodePDFRawStream,
  type PDFDocument,
  type PDFRef,
} from 'pdf-lib';
import type { Rect } from './geometry';

/** A colour as 0-255 components. */
export type Rgb = [number, number, number];

/** Image pixels larger than this are not decoded here (the image is removed whole instead). */
const MAX_PIXELS = 50_000_000;

const filtersOf = (dict: PDFDict): string[] => {
  const f = dict.lookup(PDFName.of('Filter'));
  if (f instanceof PDFName) return [f.decodeText()];
  if (f instanceof PDFArray) return f.asArray().map((x) => (x instanceof PDFName ? x.decodeText() : '?'));
  return [];
};

/** Components per pixel of the colour spaces painted here (gray and RGB, device or ICC based); else undefined. */
function componentsOf(dict: PDFDict): 1 | 3 | undefined {
  const cs = dict.lookup(PDFName.of('ColorSpace'));
  if (cs === PDFName.of('DeviceGray')) return 1;
  if (cs === PDFName.of('DeviceRGB')) return 3;
  if (cs instanceof PDFArray && cs.lookup(0) === PDFName.of('ICCBased')) {
    const profile = cs.lookup(1);
    const n = profile instanceof PDFRawStream ? profile.dict.lookup(PDFName.of('N')) : undefined;
    if (n instanceof PDFNumber && (n.asNumber() === 1 || n.asNumber() === 3)) return n.asNumber() as 1 | 3;
  }
  return undefined;
}

/** Paint the pixels under the rectangles (in the image's unit square, origin bottom-left) with the colour. */
function paint(pixels: Buffer, width: number, height: number, channels: number, rects: Rect[], fill: Rgb) {
  const gray = Math.round(0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]);
  for (const r of rects) {
    const x0 = Math.max(0, Math.floor(r.x * width));
    const x1 = Math.min(width, Math.ceil((r.x + r.width) * width));
    const y0 = Math.max(0, Math.floor((1 - r.y - r.height) * height));
    const y1 = Math.min(height, Math.ceil((1 - r.y) * height));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const at = (y * width + x) * channels;
        if (channels === 1) pixels[at] = gray;
        else for (let c = 0; c < 3; c++) pixels[at + c] = fill[c]!;
      }
    }
  }
}

/**
 * A copy of an image XObject with its pixels under the rectangles replaced by the fill colour: 8-bit gray or RGB
 * images, Flate-compressed (without predictor) or uncompressed, and JPEG (DCT) images. Answers null for any other
 * image, which the caller then removes whole rather than leave unredacted.
 */
export async function paintImage(
  doc: PDFDocument,
  image: PDFRawStream,
  rects: Rect[],
  fill: Rgb,
): Promise<PDFRef | null> {
  const dict = image.dict;
  const num = (k: string) => {
    const v = dict.lookup(PDFName.of(k));
    return v instanceof PDFNumber ? v.asNumber() : undefined;
  };
  const width = num('Width') ?? 0;
  const height = num('Height') ?? 0;
  if (width <= 0 || height <= 0 || width * height > MAX_PIXELS) return null;
  if (dict.lookup(PDFName.of('ImageMask')) || dict.has(PDFName.of('Decode'))) return null;
  const filters = filtersOf(dict);
  const keep = (stream: PDFRawStream) => {
    for (const k of ['SMask', 'Mask', 'Interpolate', 'Intent']) {
      const v = dict.get(PDFName.of(k));
      if (v) stream.dict.set(PDFName.of(k), v);
    }
    return doc.context.register(stream);
  };

  if (filters.length === 1 && filters[0] === 'DCTDecode') {
    const { data, info } = await sharp(Buffer.from(image.contents)).raw().toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || (info.channels !== 1 && info.channels !== 3)) return null;
    paint(data, width, height, info.channels, rects, fill);
    const jpeg = await sharp(data, { raw: { width, height, channels: info.channels } })
      .jpeg({ quality: 90 })
      .toBuffer();
    return keep(
      doc.context.stream(jpeg, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        BitsPerComponent: 8,
        ColorSpace: info.channels === 1 ? 'DeviceGray' : 'DeviceRGB',
        Filter: 'DCTDecode',
      }) as PDFRawStream,
    );
  }

  const channels = componentsOf(dict);
  const predictor = dict.lookup(PDFName.of('DecodeParms'));
  const plain = filters.length === 0 || (filters.length === 1 && filters[0] === 'FlateDecode');
  if (!channels || num('BitsPerComponent') !== 8 || !plain || predictor) return null;
  const pixels = Buffer.from(decodePDFRawStream(image).decode());
  if (pixels.length < width * height * channels) return null;
  paint(pixels, width, height, channels, rects, fill);
  const copy = doc.context.flateStream(pixels, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: 8,
  });
  copy.dict.set(PDFName.of('ColorSpace'), dict.get(PDFName.of('ColorSpace'))!);
  return keep(copy);
}
