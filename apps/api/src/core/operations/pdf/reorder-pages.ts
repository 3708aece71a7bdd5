import { parsePageOrder } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function reorderPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  const order = parsePageOrder(spec, input.pages, 'order');
  const file = out(job, 'reordered.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, order, job.ctx), job.signal);
  return { path: file, name: 'reordered', pages: order.length };
}
