import { parsePageSet } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function rotatePages(
  job: PdfJob,
  input: PreparedPdf,
  angle: 90 | 180 | 270,
  spec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(spec, input.pages, 'pages');
  const file = out(job, 'rotated.pdf');
  await job.engines.run('rotate', (f) => f(input.path, file, { angle, pages }, job.ctx), job.signal);
  return { path: file, name: 'rotated', pages: input.pages };
}
