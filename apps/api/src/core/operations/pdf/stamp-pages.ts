import path from 'node:path';
import { parsePageSet } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';
import { boxesFor } from './page-boxes';

type StampMap = Array<{ page: number; stampPage: number }>;

/** Lay a stamp PDF, built for the chosen pages' boxes, over those pages. */
export async function stampPages(
  job: PdfJob,
  input: PreparedPdf,
  pagesSpec: string | undefined,
  name: string,
  build: (boxes: Awaited<ReturnType<typeof boxesFor>>, stamp: string) => Promise<StampMap>,
  under = false,
): Promise<OutputFile> {
  const boxes = await boxesFor(job, input, parsePageSet(pagesSpec, input.pages, 'pages'));
  const stamp = path.join(job.ctx.scratch, `${name}-stamp.pdf`);
  const map = await build(boxes, stamp);
  const file = out(job, `${name}.pdf`);
  await job.engines.run('stamp', (f) => f(input.path, file, { stamp, map, under }, job.ctx), job.signal);
  return { path: file, name, pages: input.pages };
}
