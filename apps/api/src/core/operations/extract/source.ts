import { stat } from 'node:fs/promises';
import { autoSource, convertSource } from '../convert/convert-source';
import type { PdfJob, PreparedPdf, SourceFile } from '../pdf/job';

/**
 * The upload as a PDF to read: a PDF is opened as it is (`openPdf`: checked and counted like every PDF input); any
 * other format auto-to-pdf takes (office, HTML, Markdown, text, images…) is detected and converted first, then opened.
 */
export async function extractionSource(
  job: PdfJob,
  file: SourceFile,
  openPdf: (file: SourceFile) => Promise<PreparedPdf>,
): Promise<{ pdf: PreparedPdf; converted: boolean }> {
  const { route, src } = await autoSource(file);
  if (route === 'pdf') return { pdf: await openPdf(file), converted: false };
  const out = await convertSource(job, src, route, {});
  const { size } = await stat(out.path);
  return { pdf: await openPdf({ ...file, path: out.path, size, filename: `${file.filename}.pdf` }), converted: true };
}
