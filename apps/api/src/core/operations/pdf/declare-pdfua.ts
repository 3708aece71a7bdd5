import { OutputFile, PdfJob, PreparedPdf, out } from './job';

/** `input` declared PDF/UA-1 (a tagged document; an untagged one is refused). */
export async function declarePdfUa(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'pdfua.pdf');
  await job.engines.run('declarePdfUa', (f) => f(input.path, file, job.ctx), job.signal);
  return { path: file, name: 'pdfua', pages: input.pages };
}
