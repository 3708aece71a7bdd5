import { EngineError } from '../../errors';
import { parsePageList } from '../../pages';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

export async function extractPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  if (!spec?.trim())
    throw new EngineError('INVALID_INPUT', 'pages: required (e.g. "1-3,5")', { details: { field: 'pages' } });
  const pages = parsePageList(spec, input.pages, 'pages');
  const file = out(job, 'extracted.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, pages, job.ctx), job.signal);
  return { path: file, name: 'extracted', pages: pages.length };
}
