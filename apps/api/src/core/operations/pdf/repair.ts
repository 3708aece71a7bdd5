import { EngineError } from '../../errors';
import { assertPdf } from '../../pdf-sniff';
import { OutputFile, PdfJob, SourceFile, out, pageLimitError, preparePdf } from './job';

/**
 * Repair takes files the normal preparation would refuse: when counting pages fails on damage, the repair chain
 * still gets its chance; the result is counted (and held to the plan) afterwards.
 */
export async function repairPdf(job: PdfJob, file: SourceFile, label: string): Promise<OutputFile> {
  await assertPdf(file.path, label);
  let source = file.path;
  try {
    source = (await preparePdf(job, file, { label })).path;
  } catch (err) {
    if (!(err instanceof EngineError) || !['INVALID_PDF', 'ENGINE_FAILED'].includes(err.code)) throw err;
  }
  const output = out(job, 'repaired.pdf');
  await job.engines.run('repair', (f) => f(source, output, job.ctx), job.signal);
  const { value: count } = await job.engines.run('countPages', (f) => f(output, {}, job.ctx), job.signal);
  if (job.maxPages !== null && count.pages > job.maxPages) throw pageLimitError(label, count.pages, job.maxPages);
  return { path: output, name: 'repaired', pages: count.pages };
}
