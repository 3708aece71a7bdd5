import { EngineError } from '../../errors';
import type { FacturXSpec, PdfaPart } from '../../interfaces';
import { assertPdf } from '../../pdf-sniff';
import { OutputFile, PdfJob, PreparedPdf, SourceFile, out, pageLimitError, preparePdf } from './job';

export async function flattenPdf(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'flattened.pdf');
  await job.engines.run('flatten', (f) => f(input.path, file, job.ctx), job.signal);
  return { path: file, name: 'flattened', pages: input.pages };
}

export async function toPdfa(job: PdfJob, input: PreparedPdf, part: PdfaPart = 2): Promise<OutputFile> {
  const file = out(job, 'pdfa.pdf');
  await job.engines.run('toPdfa', (f) => f(input.path, file, { part, conformance: 'b' }, job.ctx), job.signal);
  return { path: file, name: 'pdfa', pages: input.pages };
}

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

/** `input` declared PDF/UA-1 (a tagged document; an untagged one is refused). */
export async function declarePdfUa(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'pdfua.pdf');
  await job.engines.run('declarePdfUa', (f) => f(input.path, file, job.ctx), job.signal);
  return { path: file, name: 'pdfua', pages: input.pages };
}
