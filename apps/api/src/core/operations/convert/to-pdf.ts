import { randomBytes } from 'node:crypto';
import { EngineError } from '../../errors';
import type { ImagesToPdfOptions, OfficeConvertOptions, PageChecks, PrintOptions, RenderLimits } from './interfaces';
import { parsePageList } from '../../pages';
import { assertContentWithinBounds, type OutputFile, type PdfJob } from '../pdf/job';

/**
 * Conversions to PDF as the API offers them, composed from the engine chains (office, HTML, URL, images) and the PDF
 * chains for the finishing steps. Framework-free: routes parse the request, build the source (an office file, an
 * HTML file with its assets dir, a URL, images) and call one of these.
 */

export interface FinishOptions {
  /** Keep only these pages of the result. */
  pageRange?: string;
  /** Answer PDF/A-2b. */
  pdfa?: boolean;
}

const out = (job: PdfJob, name: string) => job.ws.file(`conv-${randomBytes(5).toString('hex')}-${name}`);

/**
 * The result's pages, held to the plan (a conversion cannot know them before it runs: the check comes as soon as
 * they are known, before any further step), then the page selection and PDF/A.
 */
export async function finishPdf(job: PdfJob, pdf: string, name: string, opts: FinishOptions): Promise<OutputFile> {
  const { value: count } = await job.engines.run(
    'countPages',
    (f) => f(pdf, { stopAfter: job.maxPages ?? undefined }, job.ctx),
    job.signal,
  );
  if (count.pages < 1) throw new EngineError('INVALID_DOCUMENT', 'The conversion produced no pages', {});
  if (job.maxPages !== null && count.pages > job.maxPages) {
    throw new EngineError(
      'PAGE_LIMIT_EXCEEDED',
      `The converted document has ${count.atLeast ? `more than ${job.maxPages}` : count.pages} pages; your plan allows at most ${job.maxPages} pages per PDF (pageRange does not lift it)`,
      { details: { pages: count.pages, maxPagesPerPdf: job.maxPages } },
    );
  }
  // A PDF passed through as it is (auto-to-pdf, batch) may be a flate bomb: refused before pageRange or PDF/A run a
  // tool over it (and before it is answered), as every PDF input is by preparePdf.
  await assertContentWithinBounds(job, pdf, 'The document');
  let file = pdf;
  let pages = count.pages;
  if (opts.pageRange?.trim()) {
    const keep = parsePageList(opts.pageRange, count.pages, 'pageRange');
    const selected = out(job, 'pages.pdf');
    await job.engines.run('selectPages', (f) => f(file, selected, keep, job.ctx), job.signal);
    file = selected;
    pages = keep.length;
  }
  if (opts.pdfa) {
    const archived = out(job, 'pdfa.pdf');
    const from = file;
    await job.engines.run('toPdfa', (f) => f(from, archived, { part: 2, conformance: 'b' }, job.ctx), job.signal);
    file = archived;
  }
  return { path: file, name, pages };
}

export async function officeToPdf(
  job: PdfJob,
  input: string,
  opts: OfficeConvertOptions & FinishOptions,
): Promise<OutputFile> {
  const pdf = out(job, 'office.pdf');
  const { kind, landscape, fitToPage, password, exportOptions } = opts;
  await job.engines.run(
    'convertOffice',
    (f) =>
      f(input, pdf, { kind, landscape, fitToPage, password, exportOptions, timeoutMs: job.render.timeoutMs }, job.ctx),
    job.signal,
  );
  return finishPdf(job, pdf, 'converted', opts);
}

/** The page's own wish: run its scripts or not (absent: as the plan allows). */
export interface RenderRequest {
  javascript?: boolean;
}

/**
 * The render's limits: the plan's, with JavaScript turned off when the request asks; asking for JavaScript on a plan
 * without it is refused (rather than silently printing a page whose scripts did not run).
 */
export function renderLimits(job: PdfJob, requested: RenderRequest, checks: PageChecks = {}): RenderLimits {
  const planAllows = job.render.javascript !== false;
  // The expression runs in the page: without scripts it would never be true, and it must not get round the plan.
  if (checks.waitForExpression && !(planAllows && requested.javascript !== false)) {
    throw new EngineError(
      planAllows ? 'INVALID_INPUT' : 'NOT_IN_PLAN',
      planAllows
        ? "waitForExpression: needs the page's JavaScript, which this request turns off"
        : 'waitForExpression: running JavaScript in the page is not included in your plan; leave it out',
      { details: { field: 'waitForExpression' } },
    );
  }
  if (requested.javascript === true && !planAllows) {
    throw new EngineError(
      'NOT_IN_PLAN',
      "javascript: running the page's JavaScript is not included in your plan; send javascript=false or leave it out to print the page without its scripts",
      { details: { field: 'javascript' } },
    );
  }
  return { javascript: planAllows && requested.javascript !== false, timeoutMs: job.render.timeoutMs };
}

export async function htmlToPdf(
  job: PdfJob,
  html: string,
  baseDir: string,
  print: PrintOptions,
  opts: FinishOptions & RenderRequest,
): Promise<OutputFile> {
  const pdf = out(job, 'html.pdf');
  const limits = renderLimits(job, opts, print);
  await job.engines.run('renderHtml', (f) => f(html, pdf, { ...print, ...limits, baseDir }, job.ctx), job.signal);
  return finishPdf(job, pdf, 'converted', opts);
}

export async function urlToPdf(
  job: PdfJob,
  url: string,
  print: PrintOptions & { allowPrivate: boolean },
  opts: FinishOptions & RenderRequest,
): Promise<OutputFile> {
  const pdf = out(job, 'url.pdf');
  const limits = renderLimits(job, opts, print);
  await job.engines.run('renderUrl', (f) => f(url, pdf, { ...print, ...limits }, job.ctx), job.signal);
  return finishPdf(job, pdf, 'converted', opts);
}

export async function imagesToPdf(
  job: PdfJob,
  inputs: string[],
  layout: ImagesToPdfOptions,
  opts: FinishOptions,
): Promise<OutputFile> {
  const pdf = out(job, 'images.pdf');
  await job.engines.run('imagesToPdf', (f) => f(inputs, pdf, layout, job.ctx), job.signal);
  return finishPdf(job, pdf, 'converted', opts);
}
