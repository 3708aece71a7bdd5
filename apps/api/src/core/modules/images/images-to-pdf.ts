import { readFile, rm } from 'node:fs/promises';
import sharp from 'sharp';
import { EngineError, invalidInput } from '../../errors';
import type { ImagesToPdfOptions } from '../../operations/convert/interfaces';
import type { OpContext } from '../../interfaces';
import { aborted } from '../../limiter';
import { decodeBmp } from './bmp-decoder';
import type { ImagesConfig } from './config';
import { detectImageFormat, SUPPORTED_FORMATS_TEXT, type ImageFormat } from './detect-format';
import { prepareJpeg } from './jpeg-image';
import { passThroughPng } from './png-image';
import { marginProblem, orientationMatrix, placeImage } from './layout';
import { StreamingPdfWriter } from './pdf-writer';
import { checkPixels, writeImageXObject, type PreparedImage } from './prepared-image';
import { classifySharpError, dpiOf, isGrey, rasterize, type DecodeLimits } from './raster';
import { gunzipSvg, prepareSvg, type SvgLimits } from './svg-image';

const PRODUCER = 'DocFlow';

const NOT_IMAGES: Partial<Record<ImageFormat, string>> = {
  pdf: 'a PDF',
  jp2: 'a JPEG 2000 image',
  jxl: 'a JPEG XL image',
  ico: 'an icon (ICO) file',
  psd: 'a Photoshop document',
};

function unsupported(label: string, what?: string): EngineError {
  return new EngineError(
    'UNSUPPORTED_FORMAT',
    `${label} is ${what ?? 'not an image format this server reads'}: send ${SUPPORTED_FORMATS_TEXT}`,
    {
      details: { field: 'files', supported: SUPPORTED_FORMATS_TEXT },
    },
  );
}

function validate(inputs: string[], opts: ImagesToPdfOptions, config: ImagesConfig): void {
  if (!['A4', 'letter', 'fit'].includes(opts.pageSize))
    throw invalidInput('pageSize', 'unknown page size', 'A4, letter, fit');
  if (!['portrait', 'landscape', 'auto'].includes(opts.orientation))
    throw invalidInput('orientation', 'unknown orientation', 'portrait, landscape, auto');
  const margin = marginProblem(opts);
  if (margin) throw invalidInput('margin', margin);
  if (inputs.length === 0) throw invalidInput('files', 'at least one image is needed');
  if (inputs.length > config.MAX_PAGES)
    throw invalidInput('files', `at most ${config.MAX_PAGES} images (one page each) can be converted at once`);
}

/**
 * Images to one PDF, a page per image (per TIFF page), in the order given. Each image is read, checked against the
 * limits from its header, decoded off the event loop by sharp (JPEGs are not decoded at all) and written to the PDF
 * before the next one is read.
 */
export async function convertImagesToPdf(
  inputs: string[],
  output: string,
  opts: ImagesToPdfOptions,
  ctx: OpContext,
  config: ImagesConfig,
  timeoutMs: number,
): Promise<{ pages: number }> {
  validate(inputs, opts, config);
  const limits: SvgLimits = {
    maxPixels: config.MAX_PIXELS,
    timeoutSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)),
    maxRenderPixels: config.SVG_MAX_RENDER_PIXELS,
    maxSvgBytes: Math.floor(config.SVG_MAX_MB * 1_048_576),
  };
  const maxOutput = config.MAX_OUTPUT_MB * 1_048_576;
  const writer = await StreamingPdfWriter.create(output);
  const addPage = async (img: PreparedImage) => {
    if (writer.pageCount >= config.MAX_PAGES) throw tooManyPages(config.MAX_PAGES);
    const place = placeImage(img.widthPt, img.heightPt, opts);
    const xobject = await writeImageXObject(writer, img);
    await writer.addImagePage(place.pageWidth, place.pageHeight, xobject, orientationMatrix(img.orientation, place));
    if (writer.bytes > maxOutput) {
      throw new EngineError('OUTPUT_TOO_LARGE', `The PDF would be larger than the ${config.MAX_OUTPUT_MB} MB allowed`, {
        details: { maxMegabytes: config.MAX_OUTPUT_MB },
      });
    }
  };
  try {
    for (const [i, file] of inputs.entries()) {
      if (ctx.signal?.aborted) throw aborted();
      const label = `Image ${i + 1}`;
      const buf = await readFile(file);
      await convertOne(buf, label, limits, config, writer.pageCount, ctx, addPage);
    }
    if (ctx.signal?.aborted) throw aborted();
    await writer.finish({ producer: PRODUCER });
    return { pages: writer.pageCount };
  } catch (err) {
    await writer.abandon();
    await rm(output, { force: true });
    throw err;
  }
}

const tooManyPages = (max: number) =>
  new EngineError(
    'INVALID_INPUT',
    `The images make more than ${max} pages, the most one PDF may have (IMAGES_MAX_PAGES)`,
    {
      details: { field: 'files', maxPages: max },
    },
  );

async function convertOne(
  buf: Buffer,
  label: string,
  limits: SvgLimits,
  config: ImagesConfig,
  pagesSoFar: number,
  ctx: OpContext,
  addPage: (img: PreparedImage) => Promise<void>,
): Promise<void> {
  const format = detectImageFormat(buf.subarray(0, 4096));
  if (format === null) throw unsupported(label);
  const what = NOT_IMAGES[format];
  if (what) throw unsupported(label, what);

  switch (format) {
    case 'jpeg':
      return addPage(await prepareJpeg(buf, limits, label));
    case 'bmp': {
      const bmp = await decodeBmp(buf, limits.maxPixels);
      const raw = { width: bmp.width, height: bmp.height, channels: bmp.channels };
      return addPage(await rasterize(bmp.data, { raw }, { grey: false, dpi: bmp.dpi ?? 96 }, limits, label));
    }
    case 'svg':
      return addPage((await prepareSvg(buf, limits, label)).image);
    case 'svgz':
      return addPage((await prepareSvg(await gunzipSvg(buf, limits, label), limits, label)).image);
    default:
      return convertWithSharp(buf, format, label, limits, config, pagesSoFar, ctx, addPage);
  }
}

/** PNG, GIF (first frame), WebP (first frame), TIFF (every page), AVIF; HEIC only if this libvips has an HEVC decoder. */
async function convertWithSharp(
  buf: Buffer,
  format: ImageFormat,
  label: string,
  limits: DecodeLimits,
  config: ImagesConfig,
  pagesSoFar: number,
  ctx: OpContext,
  addPage: (img: PreparedImage) => Promise<void>,
): Promise<void> {
  const heic = format === 'heic' || format === 'heif';
  const meta = await sharp(buf, { limitInputPixels: false })
    .metadata()
    .catch((err: unknown) => {
      throw heic ? heicUnsupported(label, err) : classifySharpError(err, label);
    });
  const pages = format === 'tiff' ? Math.max(1, meta.pages ?? 1) : 1;
  if (pagesSoFar + pages > config.MAX_PAGES) throw tooManyPages(config.MAX_PAGES);
  for (let page = 0; page < pages; page++) {
    if (ctx.signal?.aborted) throw aborted();
    const pageLabel = pages > 1 ? `${label}, page ${page + 1}` : label;
    const m =
      page === 0
        ? meta
        : await sharp(buf, { page, limitInputPixels: false })
            .metadata()
            .catch((err: unknown) => {
              throw classifySharpError(err, pageLabel);
            });
    checkPixels(m.width, m.height, limits.maxPixels, pageLabel);
    if (format === 'png') {
      const direct = await passThroughPng(buf, m, dpiOf(m), limits, pageLabel);
      if (direct) return addPage(direct);
    }
    try {
      await addPage(await rasterize(buf, { page, pages: 1 }, { grey: isGrey(m), dpi: dpiOf(m) }, limits, pageLabel));
    } catch (err) {
      if (heic && err instanceof EngineError && err.code === 'INVALID_DOCUMENT') throw heicUnsupported(label, err);
      throw err;
    }
  }
}

const heicUnsupported = (label: string, cause: unknown) =>
  new EngineError(
    'UNSUPPORTED_FORMAT',
    `${label} is a HEIC image: this server's image library has no HEVC decoder. Convert it to JPEG or PNG first (supported: ${SUPPORTED_FORMATS_TEXT})`,
    { cause, details: { field: 'files', supported: SUPPORTED_FORMATS_TEXT } },
  );
