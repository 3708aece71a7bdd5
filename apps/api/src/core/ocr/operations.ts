import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { EngineError } from '../errors';
import type { OcrLine, OcrPage } from '../interfaces';
import { parsePageSet } from '../pages';
import type { PdfJob, PreparedPdf, OutputFile } from '../pdf/operations';
import {
  ASSUMED_DPI,
  contrastOf,
  enhance,
  estimateSkew,
  greyOf,
  imageError,
  laplacianVariance,
  meanDifference,
  openImage,
  preprocess,
  type EnhancePass,
  type OcrImageFormat,
} from './image';

/**
 * The OCR operations as the API offers them, composed from the engine chains (render, ocr, merge, stamp) and the
 * image helpers. Framework-free: routes parse the request, call one of these, and send what comes back.
 */

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
interface SourcePage {
  page: number;
  dpi: number;
  /** The resolution is known (rendered, or stated by the image) rather than assumed. */
  stated: boolean;
  /** A PNG of the page in the job's workspace (rendered or decoded on first call). */
  png(): Promise<string>;
}

let seq = 0;
const tmp = (job: PdfJob, name: string) => path.join(job.ctx.scratch, `ocr-${++seq}-${name}`);

/** Run `fn` over `items` with at most `width` at once, in order of the items; the first failure stops new starts. */
async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length && !signal?.aborted) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (signal?.aborted) throw new EngineError('ABORTED', 'The request was cancelled by the client');
  return out;
}

/** Pages processed at once: one tesseract per processing slot (each runs one thread), `per` processes per page. */
const widthOf = (job: PdfJob, per = 1) => Math.max(1, Math.floor(job.engines.limiter.stats().concurrency / per));

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
async function sourcePages(
  job: PdfJob,
  input: OcrInput,
  req: Pick<OcrRequest, 'dpi' | 'pageRange'>,
): Promise<SourcePage[]> {
  if (input.kind === 'pdf') {
    const dpi = req.dpi ?? DEFAULT_OCR_DPI;
    const pages = parsePageSet(req.pageRange, input.pdf.pages, 'pageRange');
    await checkRenderSize(job, input.pdf, pages, dpi);
    return pages.map((page) => {
      let rendered: Promise<string> | undefined;
      return {
        page,
        dpi,
        stated: true,
        // A directory per page: renderers name their files by their own scheme and list what they wrote.
        png: () =>
          (rendered ??= job.ws
            .subdir(`ocr-render-${page}`)
            .then((dir) =>
              job.engines.run(
                'render',
                (f) => f(input.pdf.path, dir, { format: 'png', dpi, pages: [page] }, job.ctx),
                job.signal,
              ),
            )
            .then((r) => r.value[0]!.path)),
      };
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
    return {
      page: f.page,
      dpi: f.dpi ?? req.dpi ?? ASSUMED_DPI,
      stated: f.dpi !== null,
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
  });
}

async function recognize(
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

async function writePng(job: PdfJob, img: Sharp, name: string): Promise<string> {
  const file = tmp(job, name);
  await img.png({ compressionLevel: 1 }).toFile(file);
  return file;
}

/** Our own files: already checked against the pixel cap when they were made. */
const ownImage = (file: string) => sharp(file, { limitInputPixels: false });

const wordCount = (p: OcrPage) => p.lines.reduce((n, l) => n + l.words.length, 0);

function pageResult(page: number, dpi: number, r: OcrPage, words: boolean): OcrPageResult {
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

function summarise(pages: OcrPageResult[], languages: string[]): OcrResult {
  const words = pages.reduce((n, p) => n + p.words, 0);
  // Mean over all words, like each page's own mean: a page with one word does not weigh as much as a full one.
  const confidence = words
    ? Math.round((pages.reduce((n, p) => n + p.confidence * p.words, 0) / words) * 100) / 100
    : 0;
  return { text: pages.map((p) => p.text).join('\n\n'), confidence, languages, pageCount: pages.length, pages };
}

// ---------------------------------------------------------------- extract

export async function ocrExtract(job: PdfJob, input: OcrInput, req: OcrRequest): Promise<OcrResult> {
  await checkLanguages(job, req.languages);
  const pages = await sourcePages(job, input, req);
  const results = await pool(
    pages,
    widthOf(job),
    async (src) => {
      let image = await src.png();
      if (req.preprocess) image = await writePng(job, preprocess(ownImage(image)), `pre-${src.page}.png`);
      return pageResult(src.page, src.dpi, await recognize(job, image, req, src.dpi), req.words ?? false);
    },
    job.signal,
  );
  return summarise(results, req.languages);
}

// ---------------------------------------------------------------- enhanced

export interface EnhancedPageResult extends OcrPageResult {
  /** The pass whose recognition was kept. */
  pass: EnhancePass;
  /** Skew found and corrected, degrees (positive: lines rose to the right). */
  skewAngle: number;
  passes: Array<{ pass: EnhancePass; confidence: number; words: number }>;
}

/**
 * Choose among passes: the best mean confidence, among passes that found most of the words (a pass that reads
 * only three clean words out of a page would otherwise win on confidence alone).
 */
export function bestPass<T extends { confidence: number; words: number }>(passes: T[]): T {
  const most = Math.max(...passes.map((p) => p.words));
  const fair = passes.filter((p) => p.words >= most * 0.7);
  return fair.reduce((a, b) => (b.confidence > a.confidence ? b : a));
}

export async function ocrEnhanced(
  job: PdfJob,
  input: OcrInput,
  req: OcrRequest,
): Promise<OcrResult & { pages: EnhancedPageResult[] }> {
  await checkLanguages(job, req.languages);
  const pages = await sourcePages(job, input, req);
  const results = await pool(
    pages,
    widthOf(job, 3),
    async (src): Promise<EnhancedPageResult> => {
      const file = await src.png();
      const img = ownImage(file);
      const skew = estimateSkew(await greyOf(img, 1600));
      const passes: EnhancePass[] = ['original', 'cleaned', 'binarized'];
      if (src.dpi < 250) passes.push('upscaled');
      const runs = await Promise.all(
        passes.map(async (pass) => {
          const e = await enhance({ img, width: 0, height: 0, dpi: src.dpi, skew }, pass);
          const image = pass === 'original' ? file : await writePng(job, e.img, `${pass}-${src.page}.png`);
          const r = await recognize(job, image, req, e.dpi);
          return { pass, confidence: r.confidence, words: wordCount(r), r, dpi: e.dpi };
        }),
      );
      const best = bestPass(runs);
      return {
        ...pageResult(src.page, best.dpi, best.r, req.words ?? false),
        pass: best.pass,
        skewAngle: skew,
        passes: runs.map(({ pass, confidence, words }) => ({ pass, confidence, words })),
      };
    },
    job.signal,
  );
  return { ...summarise(results, req.languages), pages: results };
}

// ---------------------------------------------------------------- analyze quality

export interface QualityPage {
  page: number;
  width: number;
  height: number;
  /** Resolution of the scan (stated by the image, or of the largest image on the PDF page); null: unknown. */
  dpi: number | null;
  /** The page already has a text layer (PDF): no OCR needed to extract its text. */
  hasText: boolean;
  contrast: number;
  /** 2nd-98th percentile grey spread, 0-1. */
  dynamicRange: number;
  /** Laplacian variance at 150 dpi; below ~100 text edges are soft. */
  sharpness: number;
  blurry: boolean;
  /** Mean grey change a 3×3 median filter makes, 0-1: specks and grain. */
  noise: number;
  skewAngle: number;
  score: number;
  advice: string[];
}

export interface QualityResult {
  score: number;
  suitability: 'excellent' | 'good' | 'fair' | 'poor';
  pageCount: number;
  pages: QualityPage[];
  advice: string[];
}

/** Measurements are taken at this resolution, so that sharpness means the same for any input. */
const MEASURE_DPI = 150;
const BLUR_THRESHOLD = 100;

const clamp01 = (n: number) => Math.max(0, Math.min(1, n));

const NOISE_THRESHOLD = 0.02;

export function scoreQuality(m: {
  dpi: number | null;
  dynamicRange: number;
  sharpness: number;
  skewAngle: number;
  noise: number;
}): {
  score: number;
  advice: string[];
} {
  const advice: string[] = [];
  let res = 0.85;
  if (m.dpi === null) advice.push('The image states no resolution; scan at 300 dpi for best results');
  else if (m.dpi >= 300) res = 1;
  else if (m.dpi >= 200) {
    res = 0.85;
    advice.push(`Resolution is ${m.dpi} dpi; 300 dpi gives better accuracy (the enhanced route upscales small text)`);
  } else {
    res = m.dpi >= 150 ? 0.6 : m.dpi >= 100 ? 0.4 : 0.2;
    advice.push(`Resolution is low (${m.dpi} dpi): rescan at 300 dpi; small text may not be readable`);
  }
  const contrast = clamp01(0.3 + (m.dynamicRange - 0.2) * (0.7 / 0.4));
  if (m.dynamicRange < 0.5)
    advice.push('Contrast is low: use preprocessImage or the enhanced route, or rescan darker / on a white background');
  const sharp = clamp01(Math.log10(Math.max(1, m.sharpness)) / Math.log10(BLUR_THRESHOLD * 5));
  if (m.sharpness < BLUR_THRESHOLD) advice.push('The image is blurred: rescan with the document flat and in focus');
  const clean = m.noise <= NOISE_THRESHOLD ? 1 : Math.max(0.4, 1 - (m.noise - NOISE_THRESHOLD) * 8);
  if (m.noise > NOISE_THRESHOLD)
    advice.push('The scan is noisy (specks or grain): the enhanced route filters it; a cleaner scan is better');
  const a = Math.abs(m.skewAngle);
  const skew = a < 0.5 ? 1 : a < 2 ? 0.92 : a < 5 ? 0.8 : 0.6;
  if (a >= 0.5) advice.push(`The page is skewed by about ${a.toFixed(1)}°: the enhanced route straightens it`);
  return { score: Math.round(100 * res * contrast * Math.max(0.2, sharp) * skew * clean), advice };
}

export async function ocrAnalyzeQuality(
  job: PdfJob,
  input: OcrInput,
  req: Pick<OcrRequest, 'pageRange'>,
): Promise<QualityResult> {
  let ppi = new Map<number, number>();
  let textPages = new Set<number>();
  if (input.kind === 'pdf') {
    const { value: a } = await job.engines.run(
      'analyze',
      (f) => f(input.pdf.path, { text: true }, job.ctx),
      job.signal,
    );
    textPages = new Set(a.textPages);
    // The page's scan is its largest image; its resolution is what OCR will see.
    const largest = new Map<number, { px: number; ppi: number }>();
    for (const img of a.images) {
      const px = img.width * img.height;
      if (px > (largest.get(img.page)?.px ?? 0))
        largest.set(img.page, { px, ppi: Math.round(Math.min(img.xPpi, img.yPpi)) });
    }
    ppi = new Map([...largest].map(([p, v]) => [p, v.ppi]));
  }
  const pages = await sourcePages(job, input, {
    pageRange: req.pageRange,
    dpi: input.kind === 'pdf' ? MEASURE_DPI : undefined,
  });
  const results = await pool(
    pages,
    widthOf(job),
    async (src): Promise<QualityPage> => {
      const file = await src.png();
      const meta = await ownImage(file).metadata();
      const scale = Math.min(1, MEASURE_DPI / src.dpi);
      const scaled = ownImage(file).resize({ width: Math.max(1, Math.round((meta.width ?? 1) * scale)) });
      const [g, clean] = await Promise.all([greyOf(scaled), greyOf(scaled.clone().median(3))]);
      // Specks inflate both contrast and edge energy: both are measured on the median-filtered page, and the noise
      // is what the filter took away.
      const c = contrastOf(clean);
      const sharpness = Math.round(laplacianVariance(clean));
      const noise = meanDifference(g, clean);
      const skewAngle = estimateSkew(clean);
      const dpi = input.kind === 'pdf' ? (ppi.get(src.page) ?? null) : src.stated ? src.dpi : null;
      const hasText = textPages.has(src.page);
      const q = scoreQuality({
        dpi: input.kind === 'pdf' && dpi === null && hasText ? 300 : dpi,
        dynamicRange: c.range,
        sharpness,
        skewAngle,
        noise,
      });
      if (hasText) q.advice.unshift('This page already has a text layer: /pdf/extract-text reads it without OCR');
      return {
        page: src.page,
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        dpi,
        hasText,
        contrast: Math.round(c.rms * 1000) / 1000,
        dynamicRange: Math.round(c.range * 1000) / 1000,
        sharpness,
        blurry: sharpness < BLUR_THRESHOLD,
        noise: Math.round(noise * 1000) / 1000,
        skewAngle,
        score: q.score,
        advice: q.advice,
      };
    },
    job.signal,
  );
  const score = results.length ? Math.round(results.reduce((n, p) => n + p.score, 0) / results.length) : 0;
  const advice = [...new Set(results.flatMap((p) => p.advice))];
  return {
    score,
    suitability: score >= 85 ? 'excellent' : score >= 65 ? 'good' : score >= 40 ? 'fair' : 'poor',
    pageCount: results.length,
    pages: results,
    advice,
  };
}

// ---------------------------------------------------------------- searchable PDF

export interface SearchableResult extends OutputFile {
  confidence: number;
  /** Pages that got a text layer. */
  ocrPages: number[];
  /** PDF pages left as they were because they already had text. */
  skippedPages: number[];
}

/** A page with at least this many non-space characters of text is taken to be born digital. */
const HAS_TEXT_CHARS = 20;

/**
 * Image input: each frame becomes a page of its image with the invisible text over it (tesseract's PDF renderer, one
 * pass with the recognition). PDF input: the original pages are kept as they are and a text-only layer, from a
 * rendering of each page, is laid over them (qpdf overlay through the stamp chain), so the page looks exactly the same
 * and its vector content, fonts and image quality are untouched. Pages that already have text are skipped unless
 * `force`.
 */
export async function ocrSearchablePdf(
  job: PdfJob,
  input: OcrInput,
  req: OcrRequest & { force?: boolean },
): Promise<SearchableResult> {
  await checkLanguages(job, req.languages);
  let pages = await sourcePages(job, input, req);
  const skipped: number[] = [];
  if (input.kind === 'pdf' && !req.force) {
    const { value: texts } = await job.engines.run(
      'extractText',
      (f) => f(input.pdf.path, { pages: pages.map((p) => p.page), layout: false, words: false }, job.ctx),
      job.signal,
    );
    const born = new Set(texts.filter((t) => t.text.replace(/\s+/g, '').length >= HAS_TEXT_CHARS).map((t) => t.page));
    skipped.push(...pages.filter((p) => born.has(p.page)).map((p) => p.page));
    pages = pages.filter((p) => !born.has(p.page));
  }
  const textOnly = input.kind === 'pdf';
  const done = await pool(
    pages,
    widthOf(job),
    async (src) => {
      const pdf = tmp(job, `layer-${src.page}.pdf`);
      const r = await recognize(job, await src.png(), req, src.dpi, { output: pdf, textOnly });
      return { page: src.page, pdf, confidence: r.confidence, words: wordCount(r) };
    },
    job.signal,
  );
  const words = done.reduce((n, d) => n + d.words, 0);
  const confidence = words ? Math.round((done.reduce((n, d) => n + d.confidence * d.words, 0) / words) * 100) / 100 : 0;
  const output = tmp(job, 'searchable.pdf');
  const merge = async (inputs: string[], to: string) => {
    if (inputs.length === 1) return inputs[0]!;
    await job.engines.run('merge', (f) => f(inputs, to, job.ctx), job.signal);
    return to;
  };
  if (input.kind === 'image') {
    const file = await merge(
      done.map((d) => d.pdf),
      output,
    );
    return {
      path: file,
      name: 'searchable',
      pages: done.length,
      confidence,
      ocrPages: done.map((d) => d.page),
      skippedPages: [],
    };
  }
  if (!done.length) {
    return {
      path: input.pdf.path,
      name: 'searchable',
      pages: input.pdf.pages,
      confidence,
      ocrPages: [],
      skippedPages: skipped,
    };
  }
  const layer = await merge(
    done.map((d) => d.pdf),
    tmp(job, 'layers.pdf'),
  );
  await job.engines.run(
    'stamp',
    (f) =>
      f(
        input.pdf.path,
        output,
        { stamp: layer, map: done.map((d, i) => ({ page: d.page, stampPage: i + 1 })) },
        job.ctx,
      ),
    job.signal,
  );
  return {
    path: output,
    name: 'searchable',
    pages: input.pdf.pages,
    confidence,
    ocrPages: done.map((d) => d.page),
    skippedPages: skipped,
  };
}
