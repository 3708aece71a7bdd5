import type { PageLayout } from '../pdf/interfaces';
import { parsePageSet } from '../../pages';
import type { PdfJob, PreparedPdf } from '../pdf/job';
import { ocrPieces } from './ocr-lines';
import { checkLanguages, pool, recognize, sourcePages, widthOf } from '../ocr/common';

/**
 * The layout of the pages asked: text lines with their fonts from the text layer; a page without any text but with
 * an image (a scan) is rendered and read by OCR, its lines placed in points like the others (their size is the
 * line's height). A page with neither is blank: nothing to read.
 */

export interface ReadOptions {
  pages?: string;
  /** OCR languages for pages without a text layer. */
  languages: string[];
  dpi?: number;
}

export type ReadPage = PageLayout & { ocr: boolean };

export async function readPages(job: PdfJob, pdf: PreparedPdf, o: ReadOptions): Promise<ReadPage[]> {
  const pages = parsePageSet(o.pages, pdf.pages, 'pages');
  const dir = await job.ws.subdir('layout');
  const { value: layouts } = await job.engines.run(
    'readLayout',
    (f) => f(pdf.path, dir, { pages }, job.ctx),
    job.signal,
  );
  const scanned = layouts.filter((p) => p.texts.length === 0 && p.images.length > 0);
  if (!scanned.length) return layouts.map((p) => ({ ...p, ocr: false }));
  await checkLanguages(job, o.languages);
  const sources = await sourcePages(
    job,
    { kind: 'pdf', pdf },
    { dpi: o.dpi, pageRange: scanned.map((p) => p.page).join(',') },
  );
  const read = await pool(
    sources,
    widthOf(job),
    async (src) => {
      const r = await recognize(job, await src.gray(), { languages: o.languages }, src.dpi);
      const texts = ocrPieces(r.lines, src.dpi);
      return { page: src.page, texts };
    },
    job,
  );
  const byPage = new Map(read.map((r) => [r.page, r.texts]));
  return layouts.map((p) => {
    const texts = byPage.get(p.page);
    // The scan's own image is the page, not a figure on it.
    return texts ? { ...p, texts, images: [], ocr: true } : { ...p, ocr: false };
  });
}
