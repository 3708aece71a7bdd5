import type { FormValue } from './interfaces';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';

export interface FillFormOptions {
  values: Record<string, FormValue>;
  flatten: boolean;
}

/** Fill a PDF's form by field name, the values drawn into the fields' appearances; optionally flattened. */
export async function fillForm(job: PdfJob, input: PreparedPdf, o: FillFormOptions): Promise<OutputFile> {
  const file = out(job, 'filled.pdf');
  await job.engines.run('fillForm', (f) => f(input.path, file, o, job.ctx), job.signal);
  return { path: file, name: 'filled', pages: input.pages };
}
