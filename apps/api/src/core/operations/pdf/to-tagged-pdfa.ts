import type { PdfaPart } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

/**
 * PDF/UA-1, and PDF/A-<part>b with it when a part is given, as Gotenberg's LibreOffice PDF engine makes them: the PDF
 * opened by LibreOffice Draw's PDF import and exported again, tagged, PDF/UA-compliant and in the PDF/A part asked.
 * Ghostscript's PDF/A (toPdfa) rewrites the content without its marked content, so the tags PDF/UA needs would be
 * gone. The price: the pages are laid out again as drawings (text kept as text, headings tagged as paragraphs).
 */
export async function toTaggedPdfa(job: PdfJob, input: PreparedPdf, part?: PdfaPart): Promise<OutputFile> {
  const file = out(job, 'pdfa-ua.pdf');
  // SelectPdfVersion 0: plain PDF (LibreOffice's default).
  const exportOptions = { SelectPdfVersion: part ?? 0, UseTaggedPDF: true, PDFUACompliance: true };
  await job.engines.run(
    'convertOffice',
    (f) => f(input.path, file, { kind: 'pdf', exportOptions }, job.ctx),
    job.signal,
  );
  return { path: file, name: 'pdfa-ua', pages: input.pages };
}
