import type { PdfaPart } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function toPdfa(job: PdfJob, input: PreparedPdf, part: PdfaPart = 2): Promise<OutputFile> {
  const file = out(job, 'pdfa.pdf');
  await job.engines.run('toPdfa', (f) => f(input.path, file, { part, conformance: 'b' }, job.ctx), job.signal);
  return { path: file, name: 'pdfa', pages: input.pages };
}
