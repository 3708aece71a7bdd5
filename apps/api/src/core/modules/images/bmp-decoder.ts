import { EngineError } from '../../errors';

/** sharp's libvips build has no BMP loader (it would go through ImageMagick, which is not in the prebuilt binaries). */
export interface DecodedBitmap {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
  /** Pixels per inch from the header, when it gives one. */
  dpi?: number;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

const corrupt = (why: string) => new EngineError('INVALID_DOCUMENT', `The BMP image is damaged or truncated (${why})`);

interface Field {
  mask: number;
  shift: number;
  max: number;
}
function field(mask: number): Field {
  if (mask === 0) return { mask: 0, shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (((mask >>> (shift + bits)) & 1) === 1 && shift + bits < 32) bits++;
  return { mask: mask >>> 0, shift, max: 2 ** bits - 1 };
}
const take = (px: number, f: Field) =>
  f.max === 0 ? 0 : Math.round(((((px & f.mask) >>> 0) >>> f.shift) * 255) / f.max);

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Uncompressed BMP: 1, 4 and 8-bit paletted, 16-bit (5-5-5 or bit fields), 24-bit, 32-bit (with or without an alpha
 * mask), bottom-up or top-down. RLE and embedded JPEG/PNG are refused. Every size is checked against the file before
 * it is used, and the pixel count against `maxPixels` before anything is allocated; the decode loop yields to the
 * event loop every few hundred thousand pixels.
 */
export async function decodeBmp(buf: Buffer, maxPixels: number): Promise<DecodedBitmap> {
  if (buf.length < 26 || buf.toString('latin1', 0, 2) !== 'BM') throw corrupt('no BMP header');
  const dataOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  const core = headerSize === 12;
  if (!core && headerSize < 40) throw corrupt('unknown header');
  if (14 + headerSize > buf.length) throw corrupt('header past the end of the file');
  const width = core ? buf.readUInt16LE(18) : buf.readInt32LE(18);
  const rawHeight = core ? buf.readInt16LE(20) : buf.readInt32LE(22);
  const bpp = core ? buf.readUInt16LE(24) : buf.readUInt16LE(28);
  const compression = core ? BI_RGB : buf.readUInt32LE(30);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw corrupt('zero or negative size');
  if (width * height > maxPixels) {
    throw new EngineError(
      'INVALID_INPUT',
      `The image is ${width}×${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels allowed per image`,
      { details: { width, height, maxPixels } },
    );
  }
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) {
    throw new EngineError(
      'UNSUPPORTED_FORMAT',
      'This BMP is compressed (RLE or embedded JPEG/PNG), which is not supported: only uncompressed BMP (1, 4, 8, 16, 24 or 32 bits per pixel) can be converted',
    );
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw corrupt(`${bpp} bits per pixel`);
  if ((compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) && bpp !== 16 && bpp !== 32)
    throw corrupt('bit fields need 16 or 32 bits per pixel');

  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (dataOffset < 14 + headerSize || dataOffset + stride * height > buf.length)
    throw corrupt('pixel data past the end of the file');

  // Palette (1/4/8 bit): BGRX quads after the header (BGR triples in the old OS/2 header).
  let palette: Uint8Array | null = null;
  if (bpp <= 8) {
    const entrySize = core ? 3 : 4;
    const declared = core ? 0 : buf.readUInt32LE(46);
    const count = Math.min(declared > 0 ? declared : 2 ** bpp, 2 ** bpp);
    const start = 14 + headerSize;
    if (start + count * entrySize > dataOffset) throw corrupt('palette overlaps the pixel data');
    palette = new Uint8Array(256 * 3);
    for (let i = 0; i < count; i++) {
      const p = start + i * entrySize;
      palette[i * 3] = buf[p + 2]!;
      palette[i * 3 + 1] = buf[p + 1]!;
      palette[i * 3 + 2] = buf[p]!;
    }
  }

  // Channel masks: defaults for BI_RGB, else from the header (V3+) or the 12/16 bytes that follow a 40-byte header.
  let r = field(bpp === 16 ? 0x7c00 : 0xff0000);
  let g = field(bpp === 16 ? 0x03e0 : 0x00ff00);
  let b = field(bpp === 16 ? 0x001f : 0x0000ff);
  let a = field(0);
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    const at = 14 + 40;
    const withAlpha = compression === BI_ALPHABITFIELDS || headerSize >= 56;
    if (at + (withAlpha ? 16 : 12) > buf.length) throw corrupt('missing colour masks');
    r = field(buf.readUInt32LE(at));
    g = field(buf.readUInt32LE(at + 4));
    b = field(buf.readUInt32LE(at + 8));
    if (withAlpha) a = field(buf.readUInt32LE(at + 12));
  }
  // BI_RGB leaves a 32-bit pixel's fourth byte unused (V4/V5 headers may still declare an alpha mask): opaque.
  const channels: 3 | 4 = a.max > 0 ? 4 : 3;
  const out = Buffer.alloc(width * height * channels);
  let anyAlpha = false;

  const rowsPerSlice = Math.max(1, Math.floor(262_144 / width));
  for (let y = 0; y < height; y++) {
    if (y > 0 && y % rowsPerSlice === 0) await yieldToLoop();
    const src = dataOffset + (topDown ? y : height - 1 - y) * stride;
    let o = y * width * channels;
    for (let x = 0; x < width; x++, o += channels) {
      let R: number, G: number, B: number;
      let A = 255;
      if (palette) {
        const bit = x * bpp;
        const byte = buf[src + (bit >> 3)]!;
        const idx = bpp === 8 ? byte : (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        R = palette[idx * 3]!;
        G = palette[idx * 3 + 1]!;
        B = palette[idx * 3 + 2]!;
      } else if (bpp === 24) {
        const p = src + x * 3;
        B = buf[p]!;
        G = buf[p + 1]!;
        R = buf[p + 2]!;
      } else {
        const px = bpp === 16 ? buf.readUInt16LE(src + x * 2) : buf.readUInt32LE(src + x * 4);
        R = take(px, r);
        G = take(px, g);
        B = take(px, b);
        if (channels === 4) {
          A = take(px, a);
          if (A !== 0) anyAlpha = true;
        }
      }
      out[o] = R;
      out[o + 1] = G;
      out[o + 2] = B;
      if (channels === 4) out[o + 3] = A;
    }
  }
  // An alpha mask whose values are all zero is an encoder that never wrote alpha: the image is opaque.
  if (channels === 4 && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;

  let dpi: number | undefined;
  if (!core) {
    const ppm = buf.readInt32LE(38);
    if (ppm > 0) dpi = ppm * 0.0254;
  }
  return { width, height, channels, data: out, ...(dpi ? { dpi } : {}) };
}
