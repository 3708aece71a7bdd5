import type { PdfMetadata } from './interfaces';
import { PdfJob, PreparedPdf } from './job';

export async function readMetadata(job: PdfJob, input: PreparedPdf): Promise<PdfMetadata> {
  const { value } = await job.engines.run('readMetadata', (f) => f(input.path, job.ctx), job.signal);
  return { ...value, pages: input.pages, encrypted: input.wasEncrypted, pdfVersion: value.pdfVersion ?? input.version };
}
