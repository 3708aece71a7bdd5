import type { FormFieldInfo } from './interfaces';
import type { PdfJob, PreparedPdf } from './job';

/** The fields of a PDF's form (NO_FORM_FIELDS when it has none), in the form's order. */
export async function readFormFields(
  job: PdfJob,
  input: PreparedPdf,
): Promise<{ count: number; fields: FormFieldInfo[] }> {
  const { value: fields } = await job.engines.run('readFormFields', (f) => f(input.path, job.ctx), job.signal);
  return { count: fields.length, fields };
}
