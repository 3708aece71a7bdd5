import type { PdfJob } from '../pdf/job';
import { enhance, estimateSkew, greyOf, type EnhancePass } from '../../ocr/image';
import {
  OcrInput,
  OcrPageResult,
  OcrRequest,
  OcrResult,
  checkLanguages,
  ownImage,
  pageResult,
  pool,
  recognize,
  sourcePages,
  summarise,
  widthOf,
  wordCount,
  writePng,
} from './common';

export interface EnhancedPageResult extends OcrPageResult {
  /** The pass whose recognition was kept. */
  pass: EnhancePass;
  /** Skew found and corrected, degrees (positive: lines rose to the right). */
  skewAngle: number;
  passes: Array<{ pass: EnhancePass; confidence: number; words: number }>;
}

/**
 * Choose among passes: the best mean confidence, among passes that found most of the words (a pass that reads
 * only three clean words out of a page would otherwise win on confidence alone).
 */
export function bestPass<T extends { confidence: number; words: number }>(passes: T[]): T {
  const most = Math.max(...passes.map((p) => p.words));
  const fair = passes.filter((p) => p.words >= most * 0.7);
  return fair.reduce((a, b) => (b.confidence > a.confidence ? b : a));
}

export async function ocrEnhanced(
  job: PdfJob,
  input: OcrInput,
  req: OcrRequest,
): Promise<OcrResult & { pages: EnhancedPageResult[] }> {
  await checkLanguages(job, req.languages);
  const pages = await sourcePages(job, input, req);
  const results = await pool(
    pages,
    widthOf(job, 3),
    async (src): Promise<EnhancedPageResult> => {
      const file = await src.png();
      const img = ownImage(file);
      const skew = estimateSkew(await greyOf(img, 1600));
      const passes: EnhancePass[] = ['original', 'cleaned', 'binarized'];
      if (src.dpi < 250) passes.push('upscaled');
      const runs = await Promise.all(
        passes.map(async (pass) => {
          const e = await enhance({ img, width: 0, height: 0, dpi: src.dpi, skew }, pass);
          const image = pass === 'original' ? file : await writePng(job, e.img, `${pass}-${src.page}.png`);
          const r = await recognize(job, image, req, e.dpi);
          return { pass, confidence: r.confidence, words: wordCount(r), r, dpi: e.dpi };
        }),
      );
      const best = bestPass(runs);
      return {
        ...pageResult(src.page, best.dpi, best.r, req.words ?? false),
        pass: best.pass,
        skewAngle: skew,
        passes: runs.map(({ pass, confidence, words }) => ({ pass, confidence, words })),
      };
    },
    job,
  );
  return { ...summarise(results, req.languages), pages: results };
}
