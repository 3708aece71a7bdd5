import type { PdfJob } from '../pdf/job';
import { preprocess } from '../../ocr/image';
import {
  OcrInput,
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
  writePng,
} from './common';

export async function ocrExtract(job: PdfJob, input: OcrInput, req: OcrRequest): Promise<OcrResult> {
  await checkLanguages(job, req.languages);
  const pages = await sourcePages(job, input, req);
  const results = await pool(
    pages,
    widthOf(job),
    async (src) => {
      const image = req.preprocess
        ? await writePng(job, preprocess(ownImage(await src.png())), `pre-${src.page}.png`)
        : await src.gray();
      return pageResult(src.page, src.dpi, await recognize(job, image, req, src.dpi), req.words ?? false);
    },
    job,
  );
  return summarise(results, req.languages);
}
