import { PdfJob, PreparedPdf } from './job';

export async function boxesFor(job: PdfJob, input: PreparedPdf, pages: number[]) {
  const { value: boxes } = await job.engines.run(
    'pageBoxes',
    (f) => f(input.path, { pages: input.pages }, job.ctx),
    job.signal,
  );
  const want = new Set(pages);
  return boxes.filter((b) => want.has(b.page));
}
