import type { PdfJob, PreparedPdf } from '../pdf/job';
import type { StructuredPage } from './model';
import type { ReadOptions } from './read-pages';
import { structurePdf } from './structure';

/** The document as pages of typed blocks (the JSON answer of /pdf/to-json). */
export async function pdfToJson(
  job: PdfJob,
  pdf: PreparedPdf,
  o: ReadOptions,
): Promise<{ pageCount: number; pages: StructuredPage[] }> {
  return { pageCount: pdf.pages, pages: await structurePdf(job, pdf, o) };
}
