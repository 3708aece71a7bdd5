import { writeFile } from 'node:fs/promises';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from '../pdf/job';
import { toMarkdown } from './markdown';
import type { ReadOptions } from './read-pages';
import { structurePdf } from './structure';

/** The document as one Markdown file, and how many of its pages were read by OCR. */
export async function pdfToMarkdown(
  job: PdfJob,
  pdf: PreparedPdf,
  o: ReadOptions,
): Promise<OutputFile & { ocrPages: number[] }> {
  const pages = await structurePdf(job, pdf, o);
  const file = out(job, 'document.md');
  await writeFile(file, toMarkdown(pages), 'utf8');
  return { path: file, name: 'markdown', pages: pdf.pages, ocrPages: pages.filter((p) => p.ocr).map((p) => p.page) };
}
