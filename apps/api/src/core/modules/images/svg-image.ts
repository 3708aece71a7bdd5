import { promisify } from 'node:util';
import { gunzip as zlibGunzip } from 'node:zlib';
import sharp from 'sharp';
import { EngineError } from '../../errors';
import { detectImageFormat, looksLikeSvg } from './detect-format';
import { checkPixels, type PreparedImage } from './prepared-image';
import { classifySharpError, rasterize, type DecodeLimits } from './raster';
import { sanitizeSvg } from './svg-sanitize';

const gunzip = promisify(zlibGunzip);

/** Render at twice the SVG's own size (crisp when printed), within this many pixels. */
const RENDER_SCALE = 2;

export interface SvgLimits extends DecodeLimits {
  /** Largest raster an SVG is rendered to. */
  maxRenderPixels: number;
  /** Largest SVG text after un-gzipping. */
  maxSvgBytes: number;
}

export interface SvgResult {
  image: PreparedImage;
  removed: string[];
}

/** An .svgz: gunzipped with a ceiling (a gzip bomb stops there), then it must be an SVG. */
export async function gunzipSvg(buf: Buffer, limits: SvgLimits, label: string): Promise<Buffer> {
  let text: Buffer;
  try {
    text = await gunzip(buf, { maxOutputLength: limits.maxSvgBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new EngineError(
        'INVALID_INPUT',
        `${label}: the compressed SVG expands to more than ${Math.round(limits.maxSvgBytes / 1_048_576)} MB`,
        {
          cause: err,
          details: { field: 'files' },
        },
      );
    }
    throw new EngineError('INVALID_DOCUMENT', `${label} is a damaged gzip file`, {
      cause: err,
      details: { field: 'files' },
    });
  }
  if (!looksLikeSvg(text.subarray(0, 4096))) {
    throw new EngineError('UNSUPPORTED_FORMAT', `${label} is a gzip file that does not hold an SVG image`, {
      details: { field: 'files' },
    });
  }
  return text;
}

/**
 * An SVG is rendered by librsvg (through sharp) only after every external reference has been removed
 * (svg-sanitize.ts) and every inline raster image has passed the pixel cap. Its size in points is its own size read
 * at 72 dpi (1 user unit = 1 pt; mm and in are exact), so an A4 drawing becomes an A4 page with pageSize fit.
 */
export async function prepareSvg(buf: Buffer, limits: SvgLimits, label: string): Promise<SvgResult> {
  if (buf.length > limits.maxSvgBytes) {
    throw new EngineError(
      'INVALID_INPUT',
      `${label}: SVG files are limited to ${Math.round(limits.maxSvgBytes / 1_048_576)} MB`,
      { details: { field: 'files' } },
    );
  }
  const { svg, inlineImages, removed } = sanitizeSvg(buf.toString('utf8'), { maxExpansion: limits.maxSvgBytes });
  for (const img of inlineImages) {
    const format = detectImageFormat(img.subarray(0, 64));
    if (format !== 'png' && format !== 'jpeg' && format !== 'gif' && format !== 'webp') {
      throw new EngineError(
        'INVALID_DOCUMENT',
        `${label}: an image embedded in the SVG is not a PNG, JPEG, GIF or WebP`,
        { details: { field: 'files' } },
      );
    }
    try {
      const m = await sharp(img, { limitInputPixels: false }).metadata();
      checkPixels(m.width, m.height, limits.maxPixels, `An image embedded in ${label.toLowerCase()}`);
    } catch (err) {
      throw classifySharpError(err, `An image embedded in ${label.toLowerCase()}`);
    }
  }

  const size = async (density: number) => {
    try {
      const m = await sharp(svg, { density, limitInputPixels: false }).metadata();
      return { width: m.width, height: m.height };
    } catch (err) {
      throw classifySharpError(err, label);
    }
  };
  const natural = await size(72);
  if (!(natural.width > 0 && natural.height > 0)) throw classifySharpError(new Error('SVG without a size'), label);
  // Pixel counts do not always scale with the square of the density (librsvg treats absolute units differently from
  // user units), so the chosen density is measured, then corrected.
  const cap = Math.min(limits.maxRenderPixels, limits.maxPixels);
  let density = 72 * RENDER_SCALE;
  let px = await size(density);
  for (let tries = 0; px.width * px.height > cap && tries < 4; tries++) {
    density = Math.max(1, density * Math.sqrt(cap / (px.width * px.height)) * 0.97);
    px = await size(density);
  }
  checkPixels(px.width, px.height, cap, label);
  const image = await rasterize(
    svg,
    { density, limitInputPixels: cap },
    { grey: false, widthPt: natural.width, heightPt: natural.height, dpi: 72 },
    limits,
    label,
  );
  return { image, removed };
}
