import type { MetadataUpdate } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function updateMetadata(job: PdfJob, input: PreparedPdf, fields: MetadataUpdate): Promise<OutputFile> {
  const file = out(job, 'metadata.pdf');
  await job.engines.run('writeMetadata', (f) => f(input.path, file, fields, job.ctx), job.signal);
  return { path: file, name: 'metadata', pages: input.pages };
}
