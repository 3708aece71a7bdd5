import type { TextWord } from '../interfaces';
import { checkLanguages, sourcePages } from '../../ocr/common';
import type { PdfJob, PreparedPdf } from '../job';

/** Scanned pages are read at this resolution: enough for tesseract's word boxes on body text. */
const OCR_DPI = 300;

/**
 * The words tesseract reads on pages that have no text layer, with their boxes in pt on the page as shown (origin
 * top-left), as pdftotext gives them for pages that have one: the same search then finds matches on both.
 */
export async function ocrWords(
  job: PdfJob,
  input: PreparedPdf,
  pages: number[],
  languages: string[],
): Promise<Map<number, TextWord[]>> {
  const found = new Map<number, TextWord[]>();
  if (!pages.length) return found;
  await checkLanguages(job, languages);
  const sources = await sourcePages(job, { kind: 'pdf', pdf: input }, { dpi: OCR_DPI, pageRange: pages.join(',') });
  for (const source of sources) {
    const image = await source.gray();
    const { value } = await job.engines.run(
      'ocr',
      (f) => f(image, { languages, dpi: source.dpi }, job.ctx),
      job.signal,
    );
    const pt = 72 / source.dpi;
    found.set(
      source.page,
      value.lines.flatMap((l) =>
        l.words.map((w) => ({
          text: w.text,
          xMin: w.x * pt,
          yMin: w.y * pt,
          xMax: (w.x + w.width) * pt,
          yMax: (w.y + w.height) * pt,
        })),
      ),
    );
  }
  return found;
}
