import sharp, { type Sharp } from 'sharp';
import { estimateSkew, greyOf } from '../../ocr/image';
import type { PdfJob } from '../pdf/job';
import { ownImage, tmp, type SourcePage } from './common';

/** What OCRmyPDF-like fixes a page gets before recognition. */
export interface PageFixOptions {
  rotatePages: boolean;
  deskew: boolean;
  clean: boolean;
  /** The page is replaced by its (fixed) image whatever the fixes (mode=force, or an image upload). */
  rasterise: boolean;
  /** How a replacement image is kept: png (lossless, an uploaded scan) or jpeg (a page rendered from a PDF). */
  imageFormat: 'png' | 'jpeg';
}

export interface FixedPage {
  /** Clockwise turn that makes the page upright (0 when not asked or not found). */
  rotate: 0 | 90 | 180 | 270;
  /** Degrees the lines were off and were turned back (0: none). */
  skew: number;
  /** The image tesseract reads: turned, straightened and cleaned as asked. */
  ocrImage: string;
  /**
   * The page's new image when it is replaced (rasterised, or straightened): turned and straightened, never cleaned
   * (the output keeps the original pixels), tagged with its resolution so its page has the page's size.
   */
  pageImage?: string;
}

/** Below this, tesseract's orientation guess is noise (about 6 on a clear page of text; 0 when it cannot tell). */
const ORIENTATION_CONFIDENCE = 2;
/** Below this the lines are as good as straight: the page is left alone. */
const SKEW_MIN_DEGREES = 0.2;

/** Turned back by `skew` (white corners), cut back to the size it had so the page keeps its size. */
async function straighten(img: Sharp, skew: number): Promise<Sharp> {
  const { width = 0, height = 0 } = await img.clone().metadata();
  const turned = await img.rotate(skew, { background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer({
    resolveWithObject: true,
  });
  const left = Math.max(0, Math.floor((turned.info.width - width) / 2));
  const top = Math.max(0, Math.floor((turned.info.height - height) / 2));
  return sharp(turned.data).extract({
    left,
    top,
    width: Math.min(width, turned.info.width),
    height: Math.min(height, turned.info.height),
  });
}

/**
 * One page made ready for recognition: turned upright (tesseract's orientation detection), straightened (projection
 * profiles, core/ocr/image.ts), and for recognition only cleaned of specks (a median filter, contrast stretched).
 */
export async function fixPage(job: PdfJob, src: SourcePage, o: PageFixOptions): Promise<FixedPage> {
  const gray = await src.gray();
  let rotate: FixedPage['rotate'] = 0;
  if (o.rotatePages) {
    const { value } = await job.engines.run('detectOrientation', (f) => f(gray, { dpi: src.dpi }, job.ctx), job.signal);
    if (value.confidence >= ORIENTATION_CONFIDENCE) rotate = value.rotate;
  }
  const upright = (img: Sharp) => (rotate ? img.rotate(rotate) : img);
  // sharp reads the PNG rendering (not the PGM one tesseract is given).
  let skew = 0;
  if (o.deskew) {
    const measured = estimateSkew(await greyOf(upright(ownImage(await src.png())), 1600));
    if (Math.abs(measured) >= SKEW_MIN_DEGREES) skew = measured;
  }
  const fixed = async (file: string) => {
    const img = upright(ownImage(file));
    return skew ? straighten(img, skew) : img;
  };
  const changed = rotate !== 0 || skew !== 0 || o.clean;
  let ocrImage = gray;
  if (changed) {
    let img = (await fixed(await src.png())).greyscale();
    if (o.clean) img = img.median(3).normalise();
    ocrImage = tmp(job, `ocr-fixed-${src.page}.png`);
    await img.png({ compressionLevel: 1 }).toFile(ocrImage);
  }
  let pageImage: string | undefined;
  if (o.rasterise || skew !== 0) {
    pageImage = tmp(job, `page-${src.page}.jpg`);
    const density = src.dpi;
    await (await fixed(await src.png())).jpeg({ quality: 85 }).withMetadata({ density }).toFile(pageImage);
  }
  return { rotate, skew, ocrImage, pageImage };
}
