import type { PdfJob } from '../pdf/job';
import { contrastOf, estimateSkew, greyOf, laplacianVariance, meanDifference } from '../../ocr/image';
import { OcrInput, OcrRequest, ownImage, pool, sourcePages, widthOf } from './common';

export interface QualityPage {
  page: number;
  width: number;
  height: number;
  /** Resolution of the scan (stated by the image, or of the largest image on the PDF page); null: unknown. */
  dpi: number | null;
  /** The page already has a text layer (PDF): no OCR needed to extract its text. */
  hasText: boolean;
  contrast: number;
  /** 2nd-98th percentile grey spread, 0-1. */
  dynamicRange: number;
  /** Laplacian variance at 150 dpi; below ~100 text edges are soft. */
  sharpness: number;
  blurry: boolean;
  /** Mean grey change a 3×3 median filter makes, 0-1: specks and grain. */
  noise: number;
  skewAngle: number;
  score: number;
  advice: string[];
}

export interface QualityResult {
  score: number;
  suitability: 'excellent' | 'good' | 'fair' | 'poor';
  pageCount: number;
  pages: QualityPage[];
  advice: string[];
}

/** Measurements are taken at this resolution, so that sharpness means the same for any input. */
const MEASURE_DPI = 150;
const BLUR_THRESHOLD = 100;

const clamp01 = (n: number) => Math.max(0, Math.min(1, n));

const NOISE_THRESHOLD = 0.02;

export function scoreQuality(m: {
  dpi: number | null;
  dynamicRange: number;
  sharpness: number;
  skewAngle: number;
  noise: number;
}): {
  score: number;
  advice: string[];
} {
  const advice: string[] = [];
  let res = 0.85;
  if (m.dpi === null) advice.push('The image states no resolution; scan at 300 dpi for best results');
  else if (m.dpi >= 300) res = 1;
  else if (m.dpi >= 200) {
    res = 0.85;
    advice.push(`Resolution is ${m.dpi} dpi; 300 dpi gives better accuracy (the enhanced route upscales small text)`);
  } else {
    res = m.dpi >= 150 ? 0.6 : m.dpi >= 100 ? 0.4 : 0.2;
    advice.push(`Resolution is low (${m.dpi} dpi): rescan at 300 dpi; small text may not be readable`);
  }
  const contrast = clamp01(0.3 + (m.dynamicRange - 0.2) * (0.7 / 0.4));
  if (m.dynamicRange < 0.5)
    advice.push('Contrast is low: use preprocessImage or the enhanced route, or rescan darker / on a white background');
  const sharp = clamp01(Math.log10(Math.max(1, m.sharpness)) / Math.log10(BLUR_THRESHOLD * 5));
  if (m.sharpness < BLUR_THRESHOLD) advice.push('The image is blurred: rescan with the document flat and in focus');
  const clean = m.noise <= NOISE_THRESHOLD ? 1 : Math.max(0.4, 1 - (m.noise - NOISE_THRESHOLD) * 8);
  if (m.noise > NOISE_THRESHOLD)
    advice.push('The scan is noisy (specks or grain): the enhanced route filters it; a cleaner scan is better');
  const a = Math.abs(m.skewAngle);
  const skew = a < 0.5 ? 1 : a < 2 ? 0.92 : a < 5 ? 0.8 : 0.6;
  if (a >= 0.5) advice.push(`The page is skewed by about ${a.toFixed(1)}°: the enhanced route straightens it`);
  return { score: Math.round(100 * res * contrast * Math.max(0.2, sharp) * skew * clean), advice };
}

export async function ocrAnalyzeQuality(
  job: PdfJob,
  input: OcrInput,
  req: Pick<OcrRequest, 'pageRange'>,
): Promise<QualityResult> {
  let ppi = new Map<number, number>();
  let textPages = new Set<number>();
  if (input.kind === 'pdf') {
    const { value: a } = await job.engines.run(
      'analyze',
      (f) => f(input.pdf.path, { text: true }, job.ctx),
      job.signal,
    );
    textPages = new Set(a.textPages);
    // The page's scan is its largest image; its resolution is what OCR will see.
    const largest = new Map<number, { px: number; ppi: number }>();
    for (const img of a.images) {
      const px = img.width * img.height;
      if (px > (largest.get(img.page)?.px ?? 0))
        largest.set(img.page, { px, ppi: Math.round(Math.min(img.xPpi, img.yPpi)) });
    }
    ppi = new Map([...largest].map(([p, v]) => [p, v.ppi]));
  }
  const pages = await sourcePages(job, input, {
    pageRange: req.pageRange,
    dpi: input.kind === 'pdf' ? MEASURE_DPI : undefined,
  });
  const results = await pool(
    pages,
    widthOf(job),
    async (src): Promise<QualityPage> => {
      const file = await src.png();
      const meta = await ownImage(file).metadata();
      const scale = Math.min(1, MEASURE_DPI / src.dpi);
      const scaled = ownImage(file).resize({ width: Math.max(1, Math.round((meta.width ?? 1) * scale)) });
      const [g, clean] = await Promise.all([greyOf(scaled), greyOf(scaled.clone().median(3))]);
      // Specks inflate both contrast and edge energy: both are measured on the median-filtered page, and the noise
      // is what the filter took away.
      const c = contrastOf(clean);
      const sharpness = Math.round(laplacianVariance(clean));
      const noise = meanDifference(g, clean);
      const skewAngle = estimateSkew(clean);
      const dpi = input.kind === 'pdf' ? (ppi.get(src.page) ?? null) : src.stated ? src.dpi : null;
      const hasText = textPages.has(src.page);
      const q = scoreQuality({
        dpi: input.kind === 'pdf' && dpi === null && hasText ? 300 : dpi,
        dynamicRange: c.range,
        sharpness,
        skewAngle,
        noise,
      });
      if (hasText) q.advice.unshift('This page already has a text layer: /pdf/extract-text reads it without OCR');
      return {
        page: src.page,
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        dpi,
        hasText,
        contrast: Math.round(c.rms * 1000) / 1000,
        dynamicRange: Math.round(c.range * 1000) / 1000,
        sharpness,
        blurry: sharpness < BLUR_THRESHOLD,
        noise: Math.round(noise * 1000) / 1000,
        skewAngle,
        score: q.score,
        advice: q.advice,
      };
    },
    job,
  );
  const score = results.length ? Math.round(results.reduce((n, p) => n + p.score, 0) / results.length) : 0;
  const advice = [...new Set(results.flatMap((p) => p.advice))];
  return {
    score,
    suitability: score >= 85 ? 'excellent' : score >= 65 ? 'good' : score >= 40 ? 'fair' : 'poor',
    pageCount: results.length,
    pages: results,
    advice,
  };
}
