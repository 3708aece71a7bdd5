import type { MetadataUpdate, PageText, PdfAnalysis, PdfMetadata, SizeBreakdown } from '../../interfaces';
import { asEngineError, EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { assertPdf } from '../../pdf-sniff';
import { OutputFile, PdfJob, PreparedPdf, SourceFile, out } from './job';
import { Speculation, sameInputs, speculate } from './speculation';

export async function readMetadata(job: PdfJob, input: PreparedPdf): Promise<PdfMetadata> {
  const { value } = await job.engines.run('readMetadata', (f) => f(input.path, job.ctx), job.signal);
  return { ...value, pages: input.pages, encrypted: input.wasEncrypted, pdfVersion: value.pdfVersion ?? input.version };
}

export async function updateMetadata(job: PdfJob, input: PreparedPdf, fields: MetadataUpdate): Promise<OutputFile> {
  const file = out(job, 'metadata.pdf');
  await job.engines.run('writeMetadata', (f) => f(input.path, file, fields, job.ctx), job.signal);
  return { path: file, name: 'metadata', pages: input.pages };
}

export interface AnalysisResult extends PdfAnalysis {
  scanned: boolean;
  sizeBreakdown: SizeBreakdown | null;
  /** Parts that could not be made for this file, and why: the rest of the analysis stands. */
  missing: Array<{ part: 'sizeBreakdown'; code: string; message: string }>;
}

export async function analyzePdf(job: PdfJob, input: PreparedPdf): Promise<AnalysisResult> {
  const missing: AnalysisResult['missing'] = [];
  const [{ value: a }, breakdown] = await Promise.all([
    job.engines.run('analyze', (f) => f(input.path, { text: true }, job.ctx), job.signal),
    job.engines.has('sizeBreakdown')
      ? job.engines
          .run('sizeBreakdown', (f) => f(input.path, job.ctx), job.signal)
          .then((r) => r.value)
          .catch((err: unknown) => {
            // A breakdown the tools cannot make of an unusual file leaves the analysis partial, never failed; a
            // stopped call (deadline, client gone) still ends the call.
            if (job.signal?.aborted || (err instanceof EngineError && STOPPED.has(err.code))) throw err;
            const e = asEngineError(err);
            missing.push({ part: 'sizeBreakdown', code: e.code, message: e.message });
            return null;
          })
      : Promise.resolve(null),
  ]);
  const imagePages = new Set(a.images.map((i) => i.page));
  return {
    ...a,
    encrypted: input.wasEncrypted,
    // Scanned: most pages carry an image and no text layer.
    scanned: a.pages > 0 && a.textPages.length === 0 && imagePages.size >= Math.ceil(a.pages / 2),
    sizeBreakdown: breakdown,
    missing,
  };
}

/** Codes of a call stopped from outside its input: they end the call rather than a part of it. */
const STOPPED = new Set(['TIMEOUT', 'CLIENT_CLOSED_REQUEST', 'QUEUE_FULL']);

const wholeDocument = (spec?: string) => !spec?.trim() || ['all', '*'].includes(spec.trim().toLowerCase());

/** Start extracting the whole text of an upload while it is checked (only when every page is asked). */
export async function speculateText(
  job: PdfJob,
  file: SourceFile,
  opts: { pageRange?: string; layout: boolean; words: boolean },
) {
  if (!wholeDocument(opts.pageRange) || job.engines.options.speculate === false) return undefined;
  await assertPdf(file.path, `"${file.filename}"`);
  return speculate(job, [file.path], async (ctx) => {
    const { value } = await job.engines.run(
      'extractText',
      (f) => f(file.path, { pages: 'all', layout: opts.layout, words: opts.words }, ctx),
      ctx.signal,
    );
    return value;
  });
}

export async function extractText(
  job: PdfJob,
  input: PreparedPdf,
  opts: { pageRange?: string; layout: boolean; words: boolean },
  spec?: Speculation<PageText[]>,
): Promise<{ pages: PageText[]; text: string }> {
  const pages = parsePageSet(opts.pageRange, input.pages, 'pageRange');
  let value: PageText[] | undefined;
  if (spec && sameInputs(spec, [input])) {
    const got = await spec.result;
    // Used only when the tool saw the same pages as the check.
    if (got.length === input.pages) value = got;
  } else spec?.cancel();
  value ??= (
    await job.engines.run(
      'extractText',
      (f) => f(input.path, { pages, layout: opts.layout, words: opts.words }, job.ctx),
      job.signal,
    )
  ).value;
  return { pages: value, text: value.map((p) => p.text).join('\n\n') };
}
