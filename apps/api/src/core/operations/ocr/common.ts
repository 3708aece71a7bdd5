import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { EngineError } from '../../errors';
import { runBorrowing } from '../../limiter';
import type { OcrLine, OcrPage } from './interfaces';
import { parsePageSet } from '../../pages';
import type { PdfJob, PreparedPdf } from '../pdf/job';
import { ASSUMED_DPI, imageError, openImage, type OcrImageFormat } from '../../ocr/image';

/** A rendered or decoded page is refused past this size (A3 at 600 dpi is 70 MP; tesseract needs ~10 bytes a pixel). */
export const OCR_MAX_PIXELS = 80_000_000;
export const DEFAULT_OCR_DPI = 300;

export type OcrInput =
  { kind: 'pdf'; pdf: PreparedPdf } | { kind: 'image'; path: string; format: OcrImageFormat; label: string };

export interface OcrRequest {
  languages: string[];
  psm?: number;
  whitelist?: string;
  /** PDF: rendering resolution. Image: its resolution when the file states none. */
  dpi?: number;
  /** PDF only: which pages (default all). */
  pageRange?: string;
  preprocess?: boolean;
  /** Keep word boxes in the answer. */
  words?: boolean;
}

export interface OcrPageResult {
  page: number;
  text: string;
  confidence: number;
  width: number;
  height: number;
  dpi: number;
  words: number;
  lines: OcrLine[];
}

export interface OcrResult {
  text: string;
  confidence: number;
  languages: string[];
  pageCount: number;
  pages: OcrPageResult[];
}

/** One page to work on: its number, the resolution it is read at, and its pixels on demand. */
export interface SourcePage {
  page: number;
  dpi: number;
  /** The resolution is known (rendered, or stated by the image) rather than assumed. */
  stated: boolean;
  /** A PNG of the page in the job's workspace (rendered or decoded on first call). */
  png(): Promise<string>;
  /**
   * The page for tesseract alone: a PDF page rendered as uncompressed 8-bit gray (PGM), which costs a quarter of the
   * PNG's rendering and spares tesseract its own decoding and conversion to gray; an image frame as its PNG.
   */
  gray(): Promise<string>;
}

let seq = 0;
export const tmp = (job: PdfJob, name: string) => path.join(job.ctx.scratch, `ocr-${++seq}-${name}`);

/** What a pool's worker knows beside its item. */
export interface PoolTurn<T> {
  /** No other item waits to start: any worker that finishes from now on would stand idle. */
  last: boolean;
  /** More work, started by the next free worker (another one is started while fewer than the width run). */
  add(item: T): void;
}

/**
 * Run `fn` over `items` with at most `width` at once, in order of the items; the first failure stops new starts. Each
 * finished item is told to the job's progress. Past the first, workers only get a slot the server has free and nobody
 * waits for, or one within the owner's share. Items added while it runs come after the others, their results too.
 */
export async function pool<T, R>(
  items: T[],
  width: number,
  fn: (item: T, turn: PoolTurn<T>) => Promise<R>,
  job?: Pick<PdfJob, 'signal' | 'progress'>,
): Promise<R[]> {
  const signal = job?.signal;
  const queue = [...items];
  const out: R[] = [];
  let next = 0;
  let finished = 0;
  let failed = false;
  let workers = 0;
  const running: Array<Promise<void>> = [];
  const worker = async () => {
    try {
      while (!failed && next < queue.length && !signal?.aborted) {
        const i = next++;
        try {
          out[i] = await fn(queue[i]!, { last: next === queue.length, add });
          job?.progress?.(++finished, queue.length);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    } finally {
      workers--;
    }
  };
  // The first worker runs within the owner's share; the others borrow idle slots (core/limiter.ts, runBorrowing).
  const start = () => {
    workers++;
    const run = running.length === 0 ? worker() : runBorrowing(worker);
    // Handled here, rethrown by the wait below: a worker may fail before the wait reaches it.
    run.catch(() => undefined);
    running.push(run);
  };
  function add(item: T) {
    queue.push(item);
    if (workers < width) start();
  }
  for (let k = 0; k < Math.max(1, Math.min(width, items.length)); k++) start();
  // Workers started while waiting are waited for too.
  for (let seen = 0; seen < running.length;) {
    const batch = running.slice(seen);
    seen = running.length;
    await Promise.all(batch);
  }
  if (signal?.aborted) throw new EngineError('ABORTED', 'The request was cancelled by the client');
  return out;
}

/** Pages processed at once: one tesseract per processing slot (each runs one thread), `per` processes per page. */
export const widthOf = (job: PdfJob, per = 1) => Math.max(1, Math.floor(job.engines.limiter.stats().concurrency / per));

/** The installed languages, checked before any page is rendered: a typo costs nothing. */
export async function ocrLanguages(job: Pick<PdfJob, 'engines' | 'ctx' | 'signal'>): Promise<string[]> {
  const { value } = await job.engines.run('ocrLanguages', (f) => f(job.ctx), job.signal);
  return value;
}

export async function checkLanguages(job: PdfJob, wanted: string[]): Promise<void> {
  const valid = await ocrLanguages(job);
  const bad = wanted.filter((l) => !valid.includes(l));
  if (bad.length) {
    throw new EngineError(
      'INVALID_INPUT',
      `languages: "${bad.join('+')}" ${bad.length > 1 ? 'are' : 'is'} not installed; valid: ${valid.join(', ')} (combine with "+", e.g. "eng+fra")`,
      { details: { field: 'languages', valid } },
    );
  }
}

/** Refuse pages that would render past the pixel cap, naming the dpi that would fit. */
async function checkRenderSize(job: PdfJob, pdf: PreparedPdf, pages: number[], dpi: number): Promise<void> {
  const { value: boxes } = await job.engines.run(
    'pageBoxes',
    (f) => f(pdf.path, { pages: pdf.pages }, job.ctx),
    job.signal,
  );
  for (const b of boxes) {
    if (!pages.includes(b.page)) continue;
    const px = ((b.width * dpi) / 72) * ((b.height * dpi) / 72);
    if (px > OCR_MAX_PIXELS) {
      const maxDpi = Math.floor(72 * Math.sqrt(OCR_MAX_PIXELS / (b.width * b.height)));
      throw new EngineError(
        'INVALID_INPUT',
        `dpi: page ${b.page} at ${dpi} dpi would be ${Math.round(px / 1e6)} megapixels (at most ${Math.round(OCR_MAX_PIXELS / 1e6)}); use dpi ${maxDpi} or less`,
        { details: { field: 'dpi', max: maxDpi } },
      );
    }
  }
}

/**
 * The pages of an upload, ready to be read lazily. PDF pages are rendered one at a time when asked (so rendering and
 * recognition of different pages overlap); image frames are decoded with the pixel cap and the plan's page limit.
 */
export async function sourcePages(
  job: PdfJob,
  input: OcrInput,
  req: Pick<OcrRequest, 'dpi' | 'pageRange'>,
): Promise<SourcePage[]> {
  if (input.kind === 'pdf') {
    const dpi = req.dpi ?? DEFAULT_OCR_DPI;
    const pages = parsePageSet(req.pageRange, input.pdf.pages, 'pageRange');
    await checkRenderSize(job, input.pdf, pages, dpi);
    return pages.map((page) => {
      const rendered = new Map<'png' | 'pgm', Promise<string>>();
      // A directory per page and format: renderers name their files by their own scheme and list what they wrote.
      const render = (format: 'png' | 'pgm') => {
        let file = rendered.get(format);
        if (!file) {
          file = job.ws
            .subdir(`ocr-render-${page}-${format}`)
            .then((dir) =>
              job.engines.run(
                'render',
                (f) => f(input.pdf.path, dir, { format, dpi, pages: [page] }, job.ctx),
                job.signal,
              ),
            )
            .then((r) => r.value[0]!.path);
          rendered.set(format, file);
        }
        return file;
      };
      return { page, dpi, stated: true, png: () => render('png'), gray: () => render('pgm') };
    });
  }
  if (req.pageRange) {
    throw new EngineError('INVALID_INPUT', 'pageRange: only for PDF input (an image is OCR-ed whole)', {
      details: { field: 'pageRange' },
    });
  }
  const frames = await openImage(input.path, input.format, input.label, {
    maxPixels: OCR_MAX_PIXELS,
    maxPages: job.maxPages,
  });
  return frames.map((f) => {
    let written: Promise<string> | undefined;
    const source: SourcePage = {
      page: f.page,
      dpi: f.dpi ?? req.dpi ?? ASSUMED_DPI,
      stated: f.dpi !== null,
      gray: () => source.png(),
      png: () => {
        const file = tmp(job, `frame-${f.page}.png`);
        // Level 1: these files live for one request; speed matters more than size.
        // The header read fine; the pixels may still be cut short or corrupt: a fault of the upload, not ours.
        return (written ??= f.pixels
          .png({ compressionLevel: 1 })
          .toFile(file)
          .then(
            () => file,
            (err: unknown) => {
              throw imageError(err, input.label, OCR_MAX_PIXELS);
            },
          ));
      },
    };
    return source;
  });
}

export async function recognize(
  job: PdfJob,
  image: string,
  req: OcrRequest,
  dpi: number,
  pdf?: { output: string; textOnly?: boolean },
): Promise<OcrPage> {
  const { value } = await job.engines.run(
    'ocr',
    (f) => f(image, { languages: req.languages, psm: req.psm, whitelist: req.whitelist, dpi, pdf }, job.ctx),
    job.signal,
  );
  return value;
}

export async function writePng(job: PdfJob, img: Sharp, name: string): Promise<string> {
  const file = tmp(job, name);
  await img.png({ compressionLevel: 1 }).toFile(file);
  return file;
}

/** Our own files: already checked against the pixel cap when they were made. */
export const ownImage = (file: string) => sharp(file, { limitInputPixels: false });

export const wordCount = (p: OcrPage) => p.lines.reduce((n, l) => n + l.words.length, 0);

export function pageResult(page: number, dpi: number, r: OcrPage, words: boolean): OcrPageResult {
  return {
    page,
    text: r.text,
    confidence: r.confidence,
    width: r.width,
    height: r.height,
    dpi,
    words: wordCount(r),
    lines: words ? r.lines : r.lines.map(({ words: _w, ...l }) => ({ ...l, words: [] })),
  };
}

export function summarise(pages: OcrPageResult[], languages: string[]): OcrResult {
  const words = pages.reduce((n, p) => n + p.words, 0);
  // Mean over all words, like each page's own mean: a page with one word does not weigh as much as a full one.
  const confidence = words
    ? Math.round((pages.reduce((n, p) => n + p.confidence * p.words, 0) / words) * 100) / 100
    : 0;
  return { text: pages.map((p) => p.text).join('\n\n'), confidence, languages, pageCount: pages.length, pages };
}
