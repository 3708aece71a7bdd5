import path from 'node:path';
import { parsePageSet } from '../../pages';
import { buildPageNumberStamp, buildWatermarkStamp, type PageNumberSpec, type WatermarkSpec } from '../stamp';
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

export async function watermarkPdf(
  job: PdfJob,
  input: PreparedPdf,
  spec: WatermarkSpec,
  pagesSpec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  const stamp = path.join(job.ctx.scratch, 'watermark-stamp.pdf');
  const map = await buildWatermarkStamp(boxes, spec, stamp);
  const file = out(job, 'watermarked.pdf');
  await job.engines.run('stamp', (f) => f(input.path, file, { stamp, map }, job.ctx), job.signal);
  return { path: file, name: 'watermarked', pages: input.pages };
}

export async function numberPages(
  job: PdfJob,
  input: PreparedPdf,
  spec: PageNumberSpec,
  pagesSpec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  const stamp = path.join(job.ctx.scratch, 'page-numbers-stamp.pdf');
  const map = await buildPageNumberStamp(boxes, input.pages, spec, stamp);
  const file = out(job, 'numbered.pdf');
  await job.engines.run('stamp', (f) => f(input.path, file, { stamp, map }, job.ctx), job.signal);
  return { path: file, name: 'numbered', pages: input.pages };
}
