import { stat, copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engines } from '../engines';
import { EngineError } from '../errors';
import type {
  CompressionLevel,
  MetadataUpdate,
  OpContext,
  PageText,
  RenderLimits,
  PdfAnalysis,
  PdfMetadata,
  PdfPermissions,
  SizeBreakdown,
} from '../interfaces';
import { parsePageList, parsePageOrder, parsePageRanges, parsePageSet, expandRanges } from '../pages';
import { assertPdf } from '../pdf-sniff';
import type { Workspace } from '../workspace';
import { buildPageNumberStamp, buildWatermarkStamp, type PageNumberSpec, type WatermarkSpec } from './stamp';

/**
 * The PDF operations as the API offers them, composed from the engine chains. Framework-free: routes parse the
 * request, call one of these, and send what comes back.
 */

export interface PdfJob {
  engines: Engines;
  ws: Workspace;
  signal?: AbortSignal;
  /** The key's plan limit (null: unlimited). */
  maxPages: number | null;
  /** What the key's plan allows HTML and web page renders (JavaScript, deadline); empty: the engine's defaults. */
  render: RenderLimits;
  ctx: OpContext;
}

export async function createJob(
  engines: Engines,
  ws: Workspace,
  opts: { signal?: AbortSignal; maxPages: number | null; render?: RenderLimits },
): Promise<PdfJob> {
  const scratch = await ws.subdir('scratch');
  return {
    engines,
    ws,
    signal: opts.signal,
    maxPages: opts.maxPages,
    render: opts.render ?? {},
    ctx: { signal: opts.signal, scratch },
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

const out = (job: PdfJob, name: string) =>
  job.ws.file(`out-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${name}`);

/** `atLeast`: counting stopped past the limit, so `pages` is only a lower bound. */
function pageLimitError(label: string, pages: number, max: number, atLeast = false): EngineError {
  return new EngineError(
    'PAGE_LIMIT_EXCEEDED',
    `${label} has ${atLeast ? `more than ${max}` : pages} pages; your plan allows at most ${max} pages per PDF`,
    { details: { pages, maxPagesPerPdf: max, ...(atLeast ? { atLeast: true } : {}) } },
  );
}

/**
 * Every PDF input goes through here first: the bytes must be a PDF, the real page count is taken (cheaply, without
 * trusting /Count blindly) and checked against the plan before any heavy work, and an encrypted file is opened with
 * its password (or refused with PASSWORD_REQUIRED / WRONG_PASSWORD).
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

// ---------------------------------------------------------------- speculation

/**
 * Work started while the inputs are still being checked, for operations whose bare tool is about as fast as the
 * check itself (merge, text): the answer waits for both, so a refusal (page limit, password, damage) still comes
 * first and the speculative work is killed at once; when the check changes the input (decrypted, page tree
 * rebuilt), the speculative result is dropped and the work redone on the checked file.
 */
export interface Speculation<T> {
  /** The inputs it ran on. */
  paths: string[];
  result: Promise<T>;
  cancel(): void;
}

export function speculate<T>(job: PdfJob, paths: string[], fn: (ctx: OpContext) => Promise<T>): Speculation<T> {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  job.signal?.addEventListener('abort', onAbort, { once: true });
  const result = fn({ ...job.ctx, signal: ac.signal }).finally(() => job.signal?.removeEventListener('abort', onAbort));
  result.catch(() => undefined); // awaited later, or cancelled
  return { paths, result, cancel: () => ac.abort() };
}

/** Whether a speculation ran on exactly the files the checks approved. */
const sameInputs = (spec: Speculation<unknown> | undefined, inputs: PreparedPdf[]) =>
  !!spec && spec.paths.length === inputs.length && spec.paths.every((p, i) => p === inputs[i]!.path);

/** Prepare several uploads together; on the first refusal, stop the speculation and rethrow. */
export async function prepareAll<T>(
  files: SourceFile[],
  prepare: (f: SourceFile) => Promise<PreparedPdf>,
  spec?: Speculation<T>,
): Promise<PreparedPdf[]> {
  try {
    return await Promise.all(files.map(prepare));
  } catch (err) {
    spec?.cancel();
    throw err;
  }
}

// ---------------------------------------------------------------- page assembly

/** Start merging the raw uploads while they are checked (see Speculation). */
export async function speculateMerge(job: PdfJob, files: SourceFile[]): Promise<Speculation<string> | undefined> {
  if (job.engines.options.speculate === false) return undefined;
  await Promise.all(files.map((f, i) => assertPdf(f.path, `files[${i + 1}] ("${f.filename}")`)));
  const file = out(job, 'merged.pdf');
  return speculate(
    job,
    files.map((f) => f.path),
    async (ctx) => {
      await job.engines.run(
        'merge',
        (f) =>
          f(
            files.map((x) => x.path),
            file,
            ctx,
          ),
        ctx.signal,
      );
      return file;
    },
  );
}

export async function mergePdfs(job: PdfJob, inputs: PreparedPdf[], spec?: Speculation<string>): Promise<OutputFile> {
  const total = inputs.reduce((n, i) => n + i.pages, 0);
  if (job.maxPages !== null && total > job.maxPages) {
    spec?.cancel();
    throw pageLimitError('The merged document', total, job.maxPages);
  }
  if (spec && sameInputs(spec, inputs)) return { path: await spec.result, name: 'merged', pages: total };
  spec?.cancel();
  const file = out(job, 'merged.pdf');
  await job.engines.run(
    'merge',
    (f) =>
      f(
        inputs.map((i) => i.path),
        file,
        job.ctx,
      ),
    job.signal,
  );
  return { path: file, name: 'merged', pages: total };
}

export type SplitMode = 'ranges' | 'every' | 'each';

export async function splitPdf(
  job: PdfJob,
  input: PreparedPdf,
  opts: { mode: SplitMode; ranges?: string; every?: number },
): Promise<OutputFile[]> {
  if (opts.mode === 'ranges') {
    if (!opts.ranges?.trim()) {
      throw new EngineError('INVALID_INPUT', 'ranges: required when mode is "ranges" (e.g. "1-3,5")', {
        details: { field: 'ranges' },
      });
    }
    const ranges = parsePageRanges(opts.ranges, input.pages, 'ranges');
    if (ranges.length > 500)
      throw new EngineError('INVALID_INPUT', 'ranges: at most 500 ranges', { details: { field: 'ranges' } });
    return Promise.all(
      ranges.map(async (r, i) => {
        const file = out(job, `part-${i + 1}.pdf`);
        const pages = expandRanges([r]);
        await job.engines.run('selectPages', (f) => f(input.path, file, pages, job.ctx), job.signal);
        return {
          path: file,
          name: r.from === r.to ? `page-${r.from}` : `pages-${r.from}-${r.to}`,
          pages: pages.length,
        };
      }),
    );
  }
  const every = opts.mode === 'each' ? 1 : opts.every;
  if (!every || !Number.isInteger(every) || every < 1) {
    throw new EngineError('INVALID_INPUT', 'every: required when mode is "every": a whole number of pages, 1 or more', {
      details: { field: 'every' },
    });
  }
  const dir = await job.ws.subdir('split');
  const { value: files } = await job.engines.run('splitEvery', (f) => f(input.path, dir, every, job.ctx), job.signal);
  return files.map((file, i) => {
    const from = i * every + 1;
    const to = Math.min(input.pages, from + every - 1);
    return { path: file, name: from === to ? `page-${from}` : `pages-${from}-${to}`, pages: to - from + 1 };
  });
}

export async function extractPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  if (!spec?.trim())
    throw new EngineError('INVALID_INPUT', 'pages: required (e.g. "1-3,5")', { details: { field: 'pages' } });
  const pages = parsePageList(spec, input.pages, 'pages');
  const file = out(job, 'extracted.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, pages, job.ctx), job.signal);
  return { path: file, name: 'extracted', pages: pages.length };
}

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

export async function reorderPages(job: PdfJob, input: PreparedPdf, spec: string | undefined): Promise<OutputFile> {
  const order = parsePageOrder(spec, input.pages, 'order');
  const file = out(job, 'reordered.pdf');
  await job.engines.run('selectPages', (f) => f(input.path, file, order, job.ctx), job.signal);
  return { path: file, name: 'reordered', pages: order.length };
}

export async function rotatePages(
  job: PdfJob,
  input: PreparedPdf,
  angle: 90 | 180 | 270,
  spec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(spec, input.pages, 'pages');
  const file = out(job, 'rotated.pdf');
  await job.engines.run('rotate', (f) => f(input.path, file, { angle, pages }, job.ctx), job.signal);
  return { path: file, name: 'rotated', pages: input.pages };
}

// ---------------------------------------------------------------- stamps

async function boxesFor(job: PdfJob, input: PreparedPdf, pages: number[]) {
  const { value: boxes } = await job.engines.run(
    'pageBoxes',
    (f) => f(input.path, { pages: input.pages }, job.ctx),
    job.signal,
  );
  const want = new Set(pages);
  return boxes.filter((b) => want.has(b.page));
}

export async function watermarkPdf(
  job: PdfJob,
  input: PreparedPdf,
  spec: WatermarkSpec,
  pagesSpec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  const stamp = path.join(job.ctx.scratch, 'watermark-stamp.pdf');
  const map = await buildWatermarkStamp(boxes, spec, stamp);
  const file = out(job, 'watermarked.pdf');
  await job.engines.run('stamp', (f) => f(input.path, file, { stamp, map }, job.ctx), job.signal);
  return { path: file, name: 'watermarked', pages: input.pages };
}

export async function numberPages(
  job: PdfJob,
  input: PreparedPdf,
  spec: PageNumberSpec,
  pagesSpec: string | undefined,
): Promise<OutputFile> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  const stamp = path.join(job.ctx.scratch, 'page-numbers-stamp.pdf');
  const map = await buildPageNumberStamp(boxes, input.pages, spec, stamp);
  const file = out(job, 'numbered.pdf');
  await job.engines.run('stamp', (f) => f(input.path, file, { stamp, map }, job.ctx), job.signal);
  return { path: file, name: 'numbered', pages: input.pages };
}

// ---------------------------------------------------------------- security

export interface ProtectOptions {
  userPassword?: string;
  ownerPassword?: string;
  permissions: PdfPermissions;
}

function checkProtect(opts: ProtectOptions): void {
  if (!opts.userPassword && !opts.ownerPassword) {
    throw new EngineError('INVALID_INPUT', 'userPassword, ownerPassword: give at least one password', {
      details: { field: 'userPassword' },
    });
  }
}

async function encryptTo(job: PdfJob, source: string, opts: ProtectOptions, ctx: OpContext): Promise<string> {
  const file = out(job, 'protected.pdf');
  await job.engines.run(
    'encrypt',
    (f) =>
      f(
        source,
        file,
        {
          userPassword: opts.userPassword ?? '',
          ownerPassword: opts.ownerPassword ?? '',
          permissions: opts.permissions,
        },
        ctx,
      ),
    ctx.signal,
  );
  return file;
}

/** Start encrypting the raw upload while it is checked (see Speculation). */
export async function speculateProtect(
  job: PdfJob,
  file: SourceFile,
  opts: ProtectOptions,
): Promise<Speculation<string> | undefined> {
  checkProtect(opts);
  if (job.engines.options.speculate === false) return undefined;
  await assertPdf(file.path, `"${file.filename}"`);
  return speculate(job, [file.path], (ctx) => encryptTo(job, file.path, opts, ctx));
}

export async function protectPdf(
  job: PdfJob,
  input: PreparedPdf,
  opts: ProtectOptions,
  spec?: Speculation<string>,
): Promise<OutputFile> {
  checkProtect(opts);
  if (spec && sameInputs(spec, [input])) return { path: await spec.result, name: 'protected', pages: input.pages };
  spec?.cancel();
  return { path: await encryptTo(job, input.path, opts, job.ctx), name: 'protected', pages: input.pages };
}

/** `input` was prepared with its password (decrypted by preparePdf); an unencrypted upload is refused. */
export async function unlockPdf(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  if (!input.wasEncrypted) {
    throw new EngineError('INVALID_INPUT', 'file: this PDF is not encrypted; there is nothing to unlock', {
      details: { field: 'file' },
    });
  }
  return { path: input.path, name: 'unlocked', pages: input.pages };
}

// ---------------------------------------------------------------- metadata and analysis

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
}

export async function analyzePdf(job: PdfJob, input: PreparedPdf): Promise<AnalysisResult> {
  const [{ value: a }, breakdown] = await Promise.all([
    job.engines.run('analyze', (f) => f(input.path, { text: true }, job.ctx), job.signal),
    job.engines.has('sizeBreakdown')
      ? job.engines.run('sizeBreakdown', (f) => f(input.path, job.ctx), job.signal).then((r) => r.value)
      : Promise.resolve(null),
  ]);
  const imagePages = new Set(a.images.map((i) => i.page));
  return {
    ...a,
    encrypted: input.wasEncrypted,
    // Scanned: most pages carry an image and no text layer.
    scanned: a.pages > 0 && a.textPages.length === 0 && imagePages.size >= Math.ceil(a.pages / 2),
    sizeBreakdown: breakdown,
  };
}

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

// ---------------------------------------------------------------- size

export interface CompressResult extends OutputFile {
  originalSize: number;
  compressedSize: number;
  /** False when no engine made the file smaller: the original is returned. */
  reduced: boolean;
  engine: string;
}

export async function compressPdf(job: PdfJob, input: PreparedPdf, level: CompressionLevel): Promise<CompressResult> {
  const file = out(job, 'compressed.pdf');
  const originalSize = (await stat(input.path)).size;
  const { engine } = await job.engines.run('compress', (f) => f(input.path, file, { level }, job.ctx), job.signal);
  const size = (await stat(file)).size;
  if (size >= originalSize) {
    // Never a larger file: hand back the original bytes.
    await copyFile(input.path, file);
    return {
      path: file,
      name: 'compressed',
      pages: input.pages,
      originalSize,
      compressedSize: originalSize,
      reduced: false,
      engine,
    };
  }
  return {
    path: file,
    name: 'compressed',
    pages: input.pages,
    originalSize,
    compressedSize: size,
    reduced: true,
    engine,
  };
}

export interface CompressionEstimate {
  level: CompressionLevel;
  estimatedSize: number;
  estimatedReduction: number;
  method: string;
}

/** Target resolution of each lossy level (Ghostscript /ebook and /screen); images above 1.5× it are downsampled. */
const levelDpi: Record<CompressionLevel, number | null> = { low: null, medium: 150, high: 72 };
const jpegBytesPerPixel: Record<CompressionLevel, number> = { low: 0, medium: 0.18, high: 0.1 };

export async function compressionAnalysis(job: PdfJob, input: PreparedPdf) {
  const [{ value: a }, { value: b }] = await Promise.all([
    job.engines.run('analyze', (f) => f(input.path, { text: false }, job.ctx), job.signal),
    job.engines.run('sizeBreakdown', (f) => f(input.path, job.ctx), job.signal),
  ]);
  // Low is measured, not guessed: a lossless rewrite is cheap.
  let low: number;
  try {
    const file = out(job, 'probe-low.pdf');
    await job.engines.run('compress', (f) => f(input.path, file, { level: 'low' }, job.ctx), job.signal);
    low = Math.min(b.total, (await stat(file)).size);
  } catch {
    low = b.total;
  }
  const lossy = (level: CompressionLevel): number => {
    const dpi = levelDpi[level]!;
    let images = 0;
    for (const img of a.images) {
      const ppi = Math.max(img.xPpi, img.yPpi) || dpi;
      const scale = ppi > dpi * 1.5 ? dpi / ppi : 1;
      const estimate =
        img.width * img.height * scale * scale * jpegBytesPerPixel[level] * (img.colorSpace === 'gray' ? 0.5 : 1);
      images += Math.min(img.bytes, estimate);
    }
    const rest = Math.max(0, low - b.images);
    return Math.min(b.total, Math.round(rest + images + 4096));
  };
  const estimates: CompressionEstimate[] = [
    { level: 'low', estimatedSize: low, estimatedReduction: 0, method: 'measured (lossless rewrite)' },
    { level: 'medium', estimatedSize: lossy('medium'), estimatedReduction: 0, method: 'estimated (images at 150 dpi)' },
    { level: 'high', estimatedSize: lossy('high'), estimatedReduction: 0, method: 'estimated (images at 72 dpi)' },
  ];
  for (const e of estimates)
    e.estimatedReduction = b.total ? Math.round((1 - e.estimatedSize / b.total) * 1000) / 10 : 0;
  const imageShare = b.total ? b.images / b.total : 0;
  const maxPpi = Math.max(0, ...a.images.map((i) => Math.max(i.xPpi, i.yPpi)));
  let recommendation: CompressionLevel = 'low';
  let reason = 'Mostly text and vector content: a lossless rewrite keeps quality; lossy levels would gain little.';
  if (imageShare > 0.3 && maxPpi > 225) {
    recommendation = 'medium';
    reason = `Images make ${Math.round(imageShare * 100)} % of the file at up to ${Math.round(maxPpi)} ppi: downsampling to 150 dpi keeps them readable on screen and in print drafts.`;
  } else if (imageShare > 0.3) {
    recommendation = 'high';
    reason = `Images make ${Math.round(imageShare * 100)} % of the file and are already at ${Math.round(maxPpi)} ppi or less: stronger JPEG compression is where the gain is.`;
  }
  return {
    originalSize: b.total,
    breakdown: b,
    images: { count: a.images.length, bytes: b.images, maxPpi: Math.round(maxPpi) },
    fonts: { count: a.fonts.length, embedded: a.fonts.filter((f) => f.embedded).length, bytes: b.fonts },
    estimates,
    recommendation,
    reason,
  };
}

// ---------------------------------------------------------------- images

export async function renderPages(
  job: PdfJob,
  input: PreparedPdf,
  opts: { format: 'png' | 'jpg'; dpi: number; pages?: string; quality?: number; maxPixels: number },
): Promise<OutputFile[]> {
  const pages = parsePageSet(opts.pages, input.pages, 'pages');
  const boxes = await boxesFor(job, input, pages);
  for (const b of boxes) {
    const px = ((b.width * opts.dpi) / 72) * ((b.height * opts.dpi) / 72);
    if (px > opts.maxPixels) {
      const maxDpi = Math.floor(72 * Math.sqrt(opts.maxPixels / (b.width * b.height)));
      throw new EngineError(
        'INVALID_INPUT',
        `dpi: page ${b.page} at ${opts.dpi} dpi would be ${Math.round(px / 1e6)} megapixels (at most ${Math.round(opts.maxPixels / 1e6)}); use dpi ${maxDpi} or less`,
        { details: { field: 'dpi', max: maxDpi } },
      );
    }
  }
  const dir = await job.ws.subdir('render');
  const { value } = await job.engines.run(
    'render',
    (f) => f(input.path, dir, { format: opts.format, dpi: opts.dpi, pages, quality: opts.quality }, job.ctx),
    job.signal,
  );
  return value.map((r) => ({ path: r.path, name: `page-${r.page}`, pages: 1 }));
}

export async function extractImages(job: PdfJob, input: PreparedPdf, pagesSpec?: string): Promise<OutputFile[]> {
  const pages = parsePageSet(pagesSpec, input.pages, 'pages');
  const dir = await job.ws.subdir('images');
  const { value } = await job.engines.run('extractImages', (f) => f(input.path, dir, { pages }, job.ctx), job.signal);
  const counts = new Map<number, number>();
  return value.map((img) => {
    const n = (counts.get(img.page) ?? 0) + 1;
    counts.set(img.page, n);
    return { path: img.path, name: `page-${img.page}-image-${n}${path.extname(img.path)}` };
  });
}

// ---------------------------------------------------------------- rewrites

export async function flattenPdf(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'flattened.pdf');
  await job.engines.run('flatten', (f) => f(input.path, file, job.ctx), job.signal);
  return { path: file, name: 'flattened', pages: input.pages };
}

export async function toPdfa(job: PdfJob, input: PreparedPdf): Promise<OutputFile> {
  const file = out(job, 'pdfa.pdf');
  await job.engines.run('toPdfa', (f) => f(input.path, file, { part: 2, conformance: 'b' }, job.ctx), job.signal);
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
