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

/**
 * Turn pages each by its own clockwise angle, on top of the rotation they had: one rotate call per angle. Answers
 * `from` itself when nothing turns.
 */
export async function turnPages(
  job: PdfJob,
  from: string,
  turns: ReadonlyArray<{ page: number; angle: 90 | 180 | 270 }>,
  name: string,
): Promise<string> {
  let current = from;
  for (const angle of [90, 180, 270] as const) {
    const pages = turns.filter((t) => t.angle === angle).map((t) => t.page);
    if (!pages.length) continue;
    const next = out(job, `${name}-${angle}.pdf`);
    await job.engines.run('rotate', (f) => f(current, next, { angle, pages }, job.ctx), job.signal);
    current = next;
  }
  return current;
}
