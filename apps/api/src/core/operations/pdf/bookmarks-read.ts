import type { Bookmark } from './interfaces';
import { PdfJob, PreparedPdf } from './job';

export async function readBookmarks(job: PdfJob, input: PreparedPdf): Promise<Bookmark[]> {
  const { value } = await job.engines.run('readOutline', (f) => f(input.path, job.ctx), job.signal);
  return value;
}
