import path from 'node:path';
import { parsePageSet } from '../../pages';
import { buildPageNumberStamp, buildWatermarkStamp, type PageNumberSpec, type WatermarkSpec } from '../../pdf/stamp';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function boxesFor(job: PdfJob, input: PreparedPdf, pages: number[]) {
  const { value: boxes } = await job.engines.run(
    'pageBoxes',
    (f) => f(input.path, { pages: input.pages }, job.ctx),
    job.signal,
  );
  const want = new Set(pages);
  return boxes.filter((b) => want.has(b.page));
}

type StampMap = Array<{ page: number; stampPage: number }>;

/** Lay a stamp PDF, built for the chosen pages' boxes, over those pages. */
async function stampPages(
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

/** `under`: drawn beneath the page's content (Gotenberg's watermark) rather than over it (its stamp). */
export const watermarkPdf = (
  job: PdfJob,
  input: PreparedPdf,
  spec: WatermarkSpec,
  pagesSpec: string | undefined,
  opts: { under?: boolean } = {},
) =>
  stampPages(
    job,
    input,
    pagesSpec,
    'watermarked',
    (boxes, stamp) => buildWatermarkStamp(boxes, spec, stamp),
    opts.under,
  );

export const numberPages = (job: PdfJob, input: PreparedPdf, spec: PageNumberSpec, pagesSpec: string | undefined) =>
  stampPages(job, input, pagesSpec, 'numbered', (boxes, stamp) =>
    buildPageNumberStamp(boxes, input.pages, spec, stamp),
  );
