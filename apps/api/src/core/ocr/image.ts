import { readFile } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { EngineError } from '../errors';
import { decodeBmp } from '../modules/images/bmp-decoder';

/**
 * Image work of the OCR routes, in-process with sharp (libvips threads, off the event loop): decoding any accepted
 * upload into pages tesseract reads, cleaning them up before recognition, and measuring how fit a scan is for OCR.
 */

/** Image formats the OCR routes accept (detected from the bytes). */
export const OCR_IMAGE_FORMATS = ['png', 'jpg', 'tif', 'bmp', 'webp'] as const;
export type OcrImageFormat = (typeof OCR_IMAGE_FORMATS)[number];

/** Resolution assumed for an image that does not state one: what scanners produce for OCR. */
export const ASSUMED_DPI = 300;

export interface ImageLimits {
  /** Largest page in pixels (checked from the header, before decoding: a pixel bomb fails at once). */
  maxPixels: number;
  /** Most frames of a multi-page TIFF (the plan's page limit). */
  maxPages: number | null;
}

export interface SourceImage {
  /** 1-based frame number. */
  page: number;
  /** Raw pixels, upright (EXIF orientation applied), 8-bit, flattened onto white. */
  pixels: Sharp;
  width: number;
  height: number;
  /** Stated resolution, or null when the file gives none. */
  dpi: number | null;
}

/** What a client hears when sharp refuses a file: the pixel cap or a damaged image. */
export function imageError(err: unknown, label: string, maxPixels: number): EngineError {
  if (err instanceof EngineError) return err;
  const msg = (err as Error)?.message ?? '';
  if (/pixel limit|too large/i.test(msg)) {
    return new EngineError(
      'INVALID_INPUT',
      `${label} has more than ${Math.round(maxPixels / 1e6)} megapixels per page, the most OCR takes`,
      {
        cause: err,
        details: { field: 'file', maxPixels },
      },
    );
  }
  const e = new EngineError('INVALID_DOCUMENT', `${label} is damaged or truncated and could not be read`, {
    cause: err,
    details: { field: 'file' },
  });
  e.documentFault = true;
  return e;
}

function statedDpi(meta: Pick<Metadata, 'density' | 'resolutionUnit'>): number | null {
  // sharp reports 72 for files that give no resolution at all; only a unit makes it a statement.
  const d = meta.density;
  return meta.resolutionUnit && d && d >= 30 && d <= 4800 ? Math.round(d) : null;
}

/**
 * Every page of an image upload, decoded lazily (a sharp pipeline per frame). Sizes and the frame count are checked
 * against the limits from the header before any pixel is decoded.
 */
export async function openImage(
  file: string,
  format: OcrImageFormat,
  label: string,
  limits: ImageLimits,
): Promise<SourceImage[]> {
  if (format === 'bmp') {
    // libvips in sharp's prebuilt binaries has no BMP loader: the images module's decoder checks the header first.
    const bmp = await decodeBmp(await readFile(file), limits.maxPixels).catch((err: unknown) => {
      throw imageError(err, label, limits.maxPixels);
    });
    const pixels = sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: bmp.channels } }).flatten({
      background: '#ffffff',
    });
    return [
      {
        page: 1,
        pixels,
        width: bmp.width,
        height: bmp.height,
        dpi: bmp.dpi && bmp.dpi >= 30 && bmp.dpi <= 4800 ? Math.round(bmp.dpi) : null,
      },
    ];
  }
  let meta: Metadata;
  try {
    meta = await sharp(file, { limitInputPixels: limits.maxPixels }).metadata();
  } catch (err) {
    throw imageError(err, label, limits.maxPixels);
  }
  const frames = format === 'tif' ? Math.max(1, meta.pages ?? 1) : 1;
  if (limits.maxPages !== null && frames > limits.maxPages) {
    throw new EngineError(
      'PAGE_LIMIT_EXCEEDED',
      `${label} has ${frames} pages; your plan allows at most ${limits.maxPages} pages per document`,
      {
        details: { pages: frames, maxPagesPerPdf: limits.maxPages },
      },
    );
  }
  const out: SourceImage[] = [];
  for (let i = 0; i < frames; i++) {
    // Frames of a TIFF may differ in size: each is checked on its own.
    const m =
      i === 0
        ? meta
        : await sharp(file, { page: i, limitInputPixels: limits.maxPixels })
            .metadata()
            .catch((err: unknown) => {
              throw imageError(err, label, limits.maxPixels);
            });
    const w = m.width ?? 0;
    const h = m.height ?? 0;
    if (w * h > limits.maxPixels) throw imageError(new Error('pixel limit'), label, limits.maxPixels);
    if (!w || !h) throw imageError(new Error('no size'), label, limits.maxPixels);
    const rotated = (m.orientation ?? 1) >= 5;
    const pixels = sharp(file, { page: i, limitInputPixels: limits.maxPixels, failOn: 'error' })
      .autoOrient()
      .flatten({ background: '#ffffff' });
    out.push({ page: i + 1, pixels, width: rotated ? h : w, height: rotated ? w : h, dpi: statedDpi(m) });
  }
  return out;
}

/** Grey 8-bit pixels of an image, for measurements. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function greyOf(img: Sharp, maxSide?: number): Promise<Grey> {
  let p = img.clone().greyscale();
  if (maxSide) p = p.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  // greyscale() keeps an alpha channel when there is one; keep the first channel.
  if (info.channels === 1) return { data, width: info.width, height: info.height };
  const one = new Uint8Array(info.width * info.height);
  for (let i = 0, j = 0; i < one.length; i++, j += info.channels) one[i] = data[j]!;
  return { data: one, width: info.width, height: info.height };
}

/** Otsu's threshold of a grey histogram: the split that best separates ink from paper. */
export function otsu(g: Grey): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of g.data) hist[v]!++;
  const total = g.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/**
 * Skew of text lines in degrees (positive: the text rises to the right, counter-clockwise), by projection profiles:
 * ink pixels are projected onto the vertical axis at candidate angles, and the angle whose row histogram is the most
 * peaked (text lines fall into few rows) wins. Coarse steps of 0.5° over ±15°, then 0.1° around the best.
 */
export function estimateSkew(g: Grey): number {
  const t = otsu(g);
  const xs: number[] = [];
  const ys: number[] = [];
  // Paper lighter than ink is the normal case; an inverted scan (light text on dark) is read the other way round.
  let dark = 0;
  for (const v of g.data) if (v <= t) dark++;
  const inkIsDark = dark <= g.data.length / 2;
  const step = Math.max(1, Math.floor(Math.sqrt(g.data.length / 400_000)));
  for (let y = 0; y < g.height; y += step) {
    for (let x = 0; x < g.width; x += step) {
      const v = g.data[y * g.width + x]!;
      if (inkIsDark ? v <= t : v > t) {
        xs.push(x - g.width / 2);
        ys.push(y - g.height / 2);
      }
    }
  }
  if (xs.length < 50) return 0;
  const span = Math.ceil(Math.hypot(g.width, g.height)) + 2;
  const rows = new Float64Array(span);
  const score = (deg: number) => {
    rows.fill(0);
    const a = (deg * Math.PI) / 180;
    const s = Math.sin(a);
    const c = Math.cos(a);
    const half = span / 2;
    for (let i = 0; i < xs.length; i++) rows[Math.floor(ys[i]! * c + xs[i]! * s + half)]!++;
    let sq = 0;
    for (const r of rows) sq += r * r;
    return sq;
  };
  let best = 0;
  let bestScore = -1;
  for (let d = -15; d <= 15; d += 0.5) {
    const sc = score(d);
    if (sc > bestScore) [best, bestScore] = [d, sc];
  }
  const coarse = best;
  for (let d = coarse - 0.4; d <= coarse + 0.4 + 1e-9; d += 0.1) {
    const sc = score(d);
    if (sc > bestScore) [best, bestScore] = [d, sc];
  }
  return Math.round(best * 10) / 10;
}

/** Variance of the 3×3 Laplacian: low on blurred images (edges spread), high on sharp ones. */
export function laplacianVariance(g: Grey): number {
  const { data, width: w, height: h } = g;
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const l = data[i - w]! + data[i + w]! + data[i - 1]! + data[i + 1]! - 4 * data[i]!;
      sum += l;
      sq += l * l;
      n++;
    }
  }
  if (!n) return 0;
  const mean = sum / n;
  return sq / n - mean * mean;
}

/** Mean absolute grey difference of two images of the same size, 0-1. */
export function meanDifference(a: Grey, b: Grey): number {
  const n = Math.min(a.data.length, b.data.length);
  if (!n) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / n / 255;
}

/** Contrast: RMS (standard deviation / 255) and the spread between the 2nd and 98th grey percentiles. */
export function contrastOf(g: Grey): { rms: number; range: number; background: number; ink: number } {
  const hist = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of g.data) {
    hist[v]!++;
    sum += v;
  }
  const n = g.data.length || 1;
  const mean = sum / n;
  let sq = 0;
  for (let v = 0; v < 256; v++) sq += hist[v]! * (v - mean) ** 2;
  const pct = (p: number) => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v]!;
      if (acc >= p * n) return v;
    }
    return 255;
  };
  const lo = pct(0.02);
  const hi = pct(0.98);
  return { rms: Math.sqrt(sq / n) / 255, range: (hi - lo) / 255, background: hi, ink: lo };
}

/** The light clean-up of `preprocessImage`: grey, stretched to full contrast, edges sharpened. */
export function preprocess(img: Sharp): Sharp {
  return img.clone().greyscale().normalise().sharpen({ sigma: 1 });
}

/** The passes of the enhanced route: each a different clean-up of the same page; the best recognition wins. */
export type EnhancePass = 'original' | 'cleaned' | 'binarized' | 'upscaled';

export interface EnhanceInput {
  img: Sharp;
  width: number;
  height: number;
  dpi: number;
  /** Degrees to rotate back (from estimateSkew); 0: none. */
  skew: number;
}

/**
 * One pass's image. Rotation by the skew straightens the lines (white fills the corners); the median filter removes
 * salt-and-pepper noise before stretching contrast (else the specks define the range); binarization uses Otsu's
 * threshold of the cleaned page; text below ~300 dpi is scaled up to it, where tesseract's LSTM models read best.
 */
export async function enhance(input: EnhanceInput, pass: EnhancePass): Promise<{ img: Sharp; dpi: number }> {
  let p = input.img.clone().greyscale();
  if (pass === 'original') return { img: p, dpi: input.dpi };
  // sharp turns clockwise for positive angles; text rising to the right (positive skew) is turned back clockwise.
  if (Math.abs(input.skew) >= 0.2) p = p.rotate(input.skew, { background: '#ffffff' });
  p = p.median(3).normalise();
  let dpi = input.dpi;
  if (pass === 'upscaled' || pass === 'binarized') {
    const factor = dpi < 250 ? Math.min(4, 300 / dpi) : 1;
    if (pass === 'upscaled' && factor > 1) {
      // Rotation changes the size: read it back before scaling.
      const buf = await p.png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
      p = sharp(buf.data).resize({ width: Math.round(buf.info.width * factor), kernel: 'lanczos3' });
      dpi = Math.round(dpi * factor);
    }
  }
  if (pass === 'binarized') {
    const buf = await p.png({ compressionLevel: 1 }).toBuffer();
    const g = await greyOf(sharp(buf));
    p = sharp(buf).threshold(otsu(g));
  }
  return { img: p, dpi };
}
