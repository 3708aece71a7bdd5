import type { Engines } from '../../engines';
import { EngineError } from '../../errors';
import type { OpContext } from '../../interfaces';
import type { RenderLimits } from '../convert/interfaces';
import { contentLimits } from '../../modules/pdf-scan/limits';
import { pageContentSize } from '../../modules/pdf-scan/scan';
import { assertPdf } from '../../pdf-sniff';
import type { Workspace } from '../../workspace';

export interface PdfJob {
  engines: Engines;
  ws: Workspace;
  signal?: AbortSignal;
  /** The key's plan limit (null: unlimited). */
  maxPages: number | null;
  /** What the key's plan allows HTML and web page renders (JavaScript, deadline); empty: the engine's defaults. */
  render: RenderLimits;
  ctx: OpContext;
  /** Told as the parts of a long operation finish (pages of an OCR run): a job's progress. */
  progress?: (done: number, total: number) => void;
}

export async function createJob(
  engines: Engines,
  ws: Workspace,
  opts: {
    signal?: AbortSignal;
    maxPages: number | null;
    render?: RenderLimits;
    progress?: (done: number, total: number) => void;
  },
): Promise<PdfJob> {
  const scratch = await ws.subdir('scratch');
  return {
    engines,
    ws,
    signal: opts.signal,
    maxPages: opts.maxPages,
    render: opts.render ?? {},
    // Leased when its first tool gets a processing slot (waiting, a bounded time, for one when all are held).
    ctx: { signal: opts.signal, scratch, runAs: ws.account },
    progress: opts.progress,
  };
}

export interface SourceFile {
  path: string;
  filename: string;
  size: number;
}

export interface PreparedPdf {
  /** The file to work on (decrypted when the upload was encrypted). */
  path: string;
  filename: string;
  size: number;
  pages: number;
  wasEncrypted: boolean;
  version: string | null;
}

export interface OutputFile {
  path: string;
  /** Suggested name suffix or name (the route derives the final name). */
  name: string;
  pages?: number;
}

export const out = (job: PdfJob, name: string) =>
  job.ws.file(`out-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${name}`);

/** `atLeast`: counting stopped past the limit, so `pages` is only a lower bound. */
export function pageLimitError(label: string, pages: number, max: number, atLeast = false): EngineError {
  return new EngineError(
    'PAGE_LIMIT_EXCEEDED',
    `${label} has ${atLeast ? `more than ${max}` : pages} pages; your plan allows at most ${max} pages per PDF`,
    { details: { pages, maxPagesPerPdf: max, ...(atLeast ? { atLeast: true } : {}) } },
  );
}

const MB = 1024 * 1024;

/**
 * Refuse a PDF whose pages' content decodes to more than the tools may read (a flate bomb: a few KB of Flate data
 * that inflates to hundreds of MB of operators, which pdftoppm, Ghostscript or pdftotext would parse until the
 * deadline), before any tool runs. Measured in this process by pdf-scan, inflating at most the bound.
 *
 * A file pdf-scan cannot read because of its structure (a damaged cross-reference, a wrong /Length) is first
 * rewritten by the merge engines, which rebuild the structure and copy streams without decoding them (a bomb costs
 * them milliseconds), and the copy is measured. What stays unmeasurable (content filters other than Flate, a file
 * still encrypted because the route keeps its encryption) is admitted: the engines' per-request deadline and process
 * limits still bound it. An encrypted upload is measured once decrypted. Form XObjects are not measured.
 */
export async function assertContentWithinBounds(job: PdfJob, path: string, label: string): Promise<void> {
  const measure = async (file: string) => {
    try {
      return await pageContentSize(file, job.signal, { exact: false });
    } catch (err) {
      if (err instanceof EngineError && err.code === 'UNSUPPORTED_OPERATION') return null;
      throw err;
    }
  };
  let size = await measure(path);
  if (!size) {
    const rebuilt = out(job, 'measured.pdf');
    const copied = await job.engines
      .run('merge', (f) => f([path], rebuilt, job.ctx), job.signal)
      .then(
        () => true,
        (err: unknown) => {
          if (job.signal?.aborted) throw err;
          return false; // the tools cannot read it either: the route's own steps refuse it
        },
      );
    if (copied) size = await measure(rebuilt);
  }
  if (!size?.over) return;
  const { page, bytes } = size.largestPage;
  const message =
    size.over === 'page'
      ? `${label}: page ${page} holds more than ${contentLimits.pageBytes / MB} MB of drawing instructions once decompressed; at most ${contentLimits.pageBytes / MB} MB per page is accepted`
      : `${label}: its pages hold more than ${contentLimits.fileBytes / MB} MB of drawing instructions once decompressed; at most ${contentLimits.fileBytes / MB} MB per file is accepted`;
  throw new EngineError('PDF_CONTENT_TOO_LARGE', message, {
    details:
      size.over === 'page'
        ? { page, atLeastBytes: bytes, maxPageContentBytes: contentLimits.pageBytes }
        : { atLeastBytes: size.totalBytes, maxFileContentBytes: contentLimits.fileBytes },
  });
}

/**
 * Every PDF input goes through here first: the bytes must be a PDF, the real page count is taken (cheaply, without
 * trusting /Count blindly) and checked against the plan before any heavy work, an encrypted file is opened with
 * its password (or refused with PASSWORD_REQUIRED / WRONG_PASSWORD), and a file whose page content decodes past
 * the bounds (a flate bomb) is refused with PDF_CONTENT_TOO_LARGE.
 */
export async function preparePdf(
  job: PdfJob,
  file: SourceFile,
  opts: { label: string; password?: string; keepEncryption?: boolean },
): Promise<PreparedPdf> {
  const { version } = await assertPdf(file.path, opts.label);
  // Past the plan's limit the exact number does not matter: an engine may stop counting there.
  const stopAfter = job.maxPages ?? undefined;
  const { value: count } = await job.engines.run(
    'countPages',
    (f) => f(file.path, { password: opts.password, stopAfter }, job.ctx),
    job.signal,
  );
  if (count.pages < 1) throw new EngineError('INVALID_PDF', `${opts.label} has no pages`, {});
  if (job.maxPages !== null && count.pages > job.maxPages)
    throw pageLimitError(opts.label, count.pages, job.maxPages, count.atLeast);
  let p = file.path;
  if (count.encrypted && !opts.keepEncryption) {
    p = out(job, 'decrypted.pdf');
    await job.engines.run('decrypt', (f) => f(file.path, p, { password: opts.password }, job.ctx), job.signal);
  }
  await assertContentWithinBounds(job, p, opts.label);
  if (count.declaredPages !== undefined && count.declaredPages !== count.pages) {
    // The page tree lies about its size (e.g. /Count 1000000000 over one page): rebuild it from the real pages, so
    // that no later engine trusts or allocates by the lie.
    // A one-input merge builds a fresh page tree (qpdf refuses to reuse one whose /Count is wrong).
    const rebuilt = out(job, 'normalised.pdf');
    const source = p;
    await job.engines.run(
      'merge',
      async (f) => {
        await f([source], rebuilt, job.ctx);
        // A merge engine that trusts /Count (pdfunite keeps only the first /Count pages when it is too small) has
        // rebuilt nothing: failing here lets the next engine of the chain try.
        const { value: got } = await job.engines.run('countPages', (g) => g(rebuilt, {}, job.ctx), job.signal);
        if (got.pages !== count.pages || got.declaredPages !== undefined) {
          throw Object.assign(new EngineError('ENGINE_FAILED', 'The page tree could not be rebuilt', {}), {
            documentFault: true,
          });
        }
      },
      job.signal,
    );
    p = rebuilt;
  }
  return {
    path: p,
    filename: file.filename,
    size: file.size,
    pages: count.pages,
    wasEncrypted: count.encrypted,
    version,
  };
}
