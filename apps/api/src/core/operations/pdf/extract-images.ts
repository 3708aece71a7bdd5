import path from 'node:path';
import { parsePageSet } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf } from './job';

export async function extractImages(job: PdfJob, input: PreparedPdf, pagesSpec?: string): Promise<OutputFile[]> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const dir = await job.ws.subdir('images');
  const { value } = await job.engines.run('extractImages', (f) => f(input.path, dir, { pages }, job.ctx), job.signal);
  const counts = new Map<number, number>();
  return value.map((img) => {
    const n = (counts.get(img.page) ?? 0) + 1;
    counts.set(img.page, n);
    return { path: img.path, name: `page-${img.page}-image-${n}${path.extname(img.path)}` };
  });
}
