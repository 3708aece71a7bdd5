import type { FacturXSpec } from './interfaces';
import { OutputFile, PdfJob, PreparedPdf, out } from './job';

/**
 * `input`, a PDF/A-3 document, made a Factur-X / ZUGFeRD invoice: the XML at `spec.xml` embedded as factur-x.xml and
 * declared in its XMP.
 */
export async function embedFacturX(
  job: PdfJob,
  input: PreparedPdf,
  spec: FacturXSpec & { xml: string },
): Promise<OutputFile> {
  const file = out(job, 'factur-x.pdf');
  await job.engines.run('embedFacturX', (f) => f(input.path, file, spec, job.ctx), job.signal);
  return { path: file, name: 'factur-x', pages: input.pages };
}
