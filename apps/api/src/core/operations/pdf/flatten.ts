import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function flattenPdf(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'flattened.pdf');
  await job.engines.run('flatten', (f) => f(input.path, file, job.ctx), job.signal);
  return { path: file, name: 'flattened', pages: input.pages };
}
