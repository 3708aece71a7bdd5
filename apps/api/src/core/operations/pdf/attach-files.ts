import type { Attachment } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

/** Embed `files` in the document as attachments. */
export async function attachFiles(job: PdfJob, input: PreparedPdf, files: Attachment[]): Promise<OutputFile> {
  const file = out(job, 'attached.pdf');
  await job.engines.run('attachFiles', (f) => f(input.path, file, files, job.ctx), job.signal);
  return { path: file, name: 'attached', pages: input.pages };
}
