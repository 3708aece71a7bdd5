import { EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function deletePages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  if (!spec?.trim())
    throw new EngineError('INVALID_INPUT', 'pages: required (e.g. "2,4-6")', { details: { field: 'pages' } });
  const drop = new Set(parsePageSet(spec, input.pages, 'pages'));
  const keep = Array.from({ length: input.pages }, (_, i) => i + 1).filter((p) => !drop.has(p));
  if (keep.length === 0) {
    throw new EngineError('INVALID_INPUT', 'pages: cannot delete every page; a PDF keeps at least one', {
      details: { field: 'pages' },
    });
  }
  const file = out(job, 'deleted.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, keep, job.ctx), job.signal);
  return { path: file, name: 'pages-deleted', pages: keep.length };
}
