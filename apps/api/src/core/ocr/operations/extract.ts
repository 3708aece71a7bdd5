import type { PdfJob } from '../../pdf/operations';
import { preprocess } from '../image';
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
      let image = await src.png();
      if (req.preprocess) image = await writePng(job, preprocess(ownImage(image)), `pre-${src.page}.png`);
      return pageResult(src.page, src.dpi, await recognize(job, image, req, src.dpi), req.words ?? false);
    },
    job,
  );
  return summarise(results, req.languages);
}
