import type { CompressionLevel } from '../pdf/interfaces';
import { compressPdf } from '../pdf/compress';
import { toPdfa } from '../pdf/to-pdfa';
import { turnPages } from '../pdf/rotate';
import { type OutputFile, type PdfJob } from '../pdf/job';
import {
  OcrInput,
  OcrRequest,
  checkLanguages,
  pool,
  recognize,
  sourcePages,
  tmp,
  widthOf,
  wordCount,
  type SourcePage,
} from './common';
import { stripOcrLayers } from './invisible-text';
import { fixPage, type FixedPage } from './page-fixes';
import { splitPage, type PageHalves } from './split-page';

/** OCRmyPDF's options of the searchable-PDF route. */
export interface SearchableOptions {
  /**
   * skip-text: pages with text are kept as they are; redo-ocr: a page whose text is all invisible (an earlier OCR
   * layer) loses it and is OCR-ed again, pages with visible text are kept; force: every page rasterised and OCR-ed.
   */
  mode?: 'skip-text' | 'redo-ocr' | 'force';
  deskew?: boolean;
  rotatePages?: boolean;
  clean?: boolean;
  outputType?: 'pdf' | 'pdfa';
  /** 0: as made; 1-3: the compression levels of /pdf/compress (low, medium, high). */
  optimize?: 0 | 1 | 2 | 3;
}

export interface SearchableResult extends OutputFile {
  confidence: number;
  /** Pages that got a text layer. */
  ocrPages: number[];
  /** PDF pages left as they were because they already had text. */
  skippedPages: number[];
  /** Pages turned upright (page number → clockwise degrees). */
  rotatedPages: Record<number, number>;
  /** Pages straightened (page number → degrees the lines were off). */
  deskewedPages: Record<number, number>;
  /** The recognised text of every page of the output, pages separated by form feeds (OCRmyPDF's sidecar). */
  text: string;
}

/** A page, or the bottom half of one whose top half is read as the page (see split-page.ts). */
interface Unit {
  src: SourcePage;
  bottom?: Promise<PageHalves | null>;
}

/** What the reading of a bottom half adds to its page. */
type Half = Pick<DonePage, 'page' | 'layer' | 'confidence' | 'words' | 'text'>;

/**
 * Pages read in two halves made whole again: one text layer (the bottom's laid over the top's: both are the whole
 * page's size), the text top then bottom, the confidence over both halves' words.
 */
async function joinHalves(job: PdfJob, parts: Array<DonePage | Half | null>): Promise<DonePage[]> {
  const pages = parts.filter((p): p is DonePage => p !== null && 'rotate' in p);
  const bottoms = new Map(parts.filter((p): p is Half => p !== null && !('rotate' in p)).map((h) => [h.page, h]));
  return Promise.all(
    pages.map(async (top) => {
      const bottom = bottoms.get(top.page);
      if (!bottom) return top;
      const layer = tmp(job, `layer-${top.page}.pdf`);
      await job.engines.run(
        'stamp',
        (f) => f(top.layer, layer, { stamp: bottom.layer, map: [{ page: 1, stampPage: 1 }] }, job.ctx),
        job.signal,
      );
      const words = top.words + bottom.words;
      const confidence = words ? (top.confidence * top.words + bottom.confidence * bottom.words) / words : 0;
      const text = [top.text, bottom.text].filter((t) => t.trim()).join('\n\n');
      return { ...top, layer, words, confidence: Math.round(confidence * 100) / 100, text };
    }),
  );
}

/** A page with at least this many non-space characters of text is taken to be born digital. */
const HAS_TEXT_CHARS = 20;

const optimizeLevels: Record<1 | 2 | 3, CompressionLevel> = { 1: 'low', 2: 'medium', 3: 'high' };

interface DonePage {
  page: number;
  /** The invisible text, sized as the page as shown (upright). */
  layer: string;
  /** The page's replacement image, when it is replaced. */
  image?: string;
  rotate: FixedPage['rotate'];
  skew: number;
  confidence: number;
  words: number;
  text: string;
}

/**
 * PDF input: each page keeps its content and gets the recognised text as an invisible layer (qpdf overlay through
 * the stamp chain), so the page looks exactly the same and its vector content, fonts and image quality are untouched;
 * pages that already have text are skipped (mode skip-text, the default). A page is replaced by its image only where
 * asked: mode force (every page), or deskew on a page found skewed (its straightened image). rotatePages sets the
 * page's rotation and keeps its content. Image input: one page per frame, its (fixed) image under the text. Then
 * optimize and PDF/A, in that order (PDF/A last, so its declaration describes the final file).
 */
export async function ocrSearchablePdf(
  job: PdfJob,
  input: OcrInput,
  req: OcrRequest & SearchableOptions,
): Promise<SearchableResult> {
  await checkLanguages(job, req.languages);
  let pages = await sourcePages(job, input, req);
  const force = req.mode === 'force';
  const skipped: number[] = [];
  let base = input.kind === 'pdf' ? input.pdf.path : '';
  if (input.kind === 'pdf' && !force) {
    const { value: texts } = await job.engines.run(
      'extractText',
      (f) => f(input.pdf.path, { pages: pages.map((p) => p.page), layout: false, words: false }, job.ctx),
      job.signal,
    );
    const born = new Set(texts.filter((t) => t.text.replace(/\s+/g, '').length >= HAS_TEXT_CHARS).map((t) => t.page));
    let keep = pages.filter((p) => born.has(p.page)).map((p) => p.page);
    if (req.mode === 'redo-ocr' && keep.length) {
      const stripped = await stripOcrLayers(base, tmp(job, 'without-ocr-layers.pdf'), keep);
      base = stripped.path;
      keep = stripped.visible;
    }
    skipped.push(...keep);
    pages = pages.filter((p) => !keep.includes(p.page));
  }
  const rasterise = force || input.kind === 'image';
  const width = widthOf(job);
  const fixes = { rotatePages: req.rotatePages ?? false, deskew: req.deskew ?? false, clean: req.clean ?? false };
  const read = async (page: number, image: string, dpi: number, part: string) => {
    const layer = tmp(job, `layer-${page}${part}.pdf`);
    return { layer, ocr: await recognize(job, image, req, dpi, { output: layer, textOnly: true }) };
  };
  const parts = await pool<Unit, DonePage | Half | null>(
    pages.map((src) => ({ src })),
    width,
    async (unit, turn) => {
      const { src } = unit;
      if (unit.bottom) {
        const halves = await unit.bottom;
        if (!halves) return null;
        const { layer, ocr } = await read(src.page, halves.bottom, src.dpi, '-bottom');
        return { page: src.page, layer, confidence: ocr.confidence, words: wordCount(ocr), text: ocr.text };
      }
      const fixed = fixPage(job, src, {
        ...fixes,
        rasterise,
        imageFormat: input.kind === 'image' ? 'png' : 'jpeg',
      });
      // The page that would run alone while a slot stands idle is read as two halves at once (split-page.ts).
      let halves: Promise<PageHalves | null> = Promise.resolve(null);
      if (turn.last && width > 1) {
        halves = fixed.then((fix) => splitPage(job, fix.ocrImage, src.page));
        // Rethrown by whichever half awaits it; a pool stopped by a failure may never start the bottom half.
        halves.catch(() => undefined);
        turn.add({ src, bottom: halves });
      }
      const fix = await fixed;
      const half = await halves;
      const { layer, ocr } = await read(src.page, half?.top ?? fix.ocrImage, src.dpi, half ? '-top' : '');
      return {
        page: src.page,
        layer,
        image: fix.pageImage,
        rotate: fix.rotate,
        skew: fix.skew,
        confidence: ocr.confidence,
        words: wordCount(ocr),
        text: ocr.text,
      };
    },
    job,
  );
  const done = await joinHalves(job, parts);
  const words = done.reduce((n, d) => n + d.words, 0);
  const confidence = words ? Math.round((done.reduce((n, d) => n + d.confidence * d.words, 0) / words) * 100) / 100 : 0;
  const assembled = await assemble(job, input, done, base);
  let file: OutputFile = { path: assembled.path, name: 'searchable', pages: assembled.pages };
  if (req.optimize) {
    const c = await compressPdf(job, { ...preparedOf(file) }, optimizeLevels[req.optimize]);
    file = { path: c.path, name: 'searchable', pages: file.pages };
  }
  if (req.outputType === 'pdfa') {
    const a = await toPdfa(job, preparedOf(file));
    file = { path: a.path, name: 'searchable', pages: file.pages };
  }
  const byPage = new Map(done.map((d) => [d.page, d.text.trim()]));
  const pageNumbers = input.kind === 'pdf' ? Array.from({ length: input.pdf.pages }, (_, i) => i + 1) : [];
  const text =
    input.kind === 'pdf'
      ? pageNumbers.map((p) => byPage.get(p) ?? (skipped.includes(p) ? `[OCR skipped on page ${p}]` : '')).join('\n\f')
      : done.map((d) => d.text.trim()).join('\n\f');
  return {
    ...file,
    confidence,
    ocrPages: done.map((d) => d.page),
    skippedPages: skipped,
    rotatedPages: Object.fromEntries(done.filter((d) => d.rotate).map((d) => [d.page, d.rotate])),
    deskewedPages: Object.fromEntries(done.filter((d) => d.skew).map((d) => [d.page, d.skew])),
    text: `${text}\n`,
  };
}

/** The finished file as the next PDF operation takes it (made here: not encrypted, its pages known). */
const preparedOf = (f: OutputFile) => ({
  path: f.path,
  filename: 'searchable.pdf',
  size: 0,
  pages: f.pages ?? 0,
  wasEncrypted: false,
  version: null,
});

async function merge(job: PdfJob, inputs: string[], name: string): Promise<string> {
  if (inputs.length === 1) return inputs[0]!;
  const to = tmp(job, name);
  await job.engines.run('merge', (f) => f(inputs, to, job.ctx), job.signal);
  return to;
}

/** A page image (its resolution in its metadata) as a one-page PDF of the page's size, the text laid over it. */
async function imagePage(job: PdfJob, d: DonePage & { image: string }): Promise<string> {
  const bare = tmp(job, `image-page-${d.page}.pdf`);
  await job.engines.run(
    'imagesToPdf',
    (f) => f([d.image], bare, { pageSize: 'fit', orientation: 'portrait', margin: 0 }, job.ctx),
    job.signal,
  );
  const page = tmp(job, `searchable-page-${d.page}.pdf`);
  await job.engines.run(
    'stamp',
    (f) => f(bare, page, { stamp: d.layer, map: [{ page: 1, stampPage: 1 }] }, job.ctx),
    job.signal,
  );
  return page;
}

async function assemble(
  job: PdfJob,
  input: OcrInput,
  done: DonePage[],
  from: string,
): Promise<{ path: string; pages: number }> {
  if (input.kind === 'image') {
    const pages = await Promise.all(done.map((d) => imagePage(job, { ...d, image: d.image! })));
    return { path: await merge(job, pages, 'searchable.pdf'), pages: pages.length };
  }
  const total = input.pdf.pages;
  if (!done.length) return { path: from, pages: total };
  // Turned upright where found sideways: the page's rotation set (relative to what it had), its content kept.
  const turns = done.flatMap((d) => (!d.image && d.rotate ? [{ page: d.page, angle: d.rotate }] : []));
  let base = await turnPages(job, from, turns, 'rotated');
  const overlaid = done.filter((d) => !d.image);
  if (overlaid.length) {
    const layers = await merge(
      job,
      overlaid.map((d) => d.layer),
      'layers.pdf',
    );
    const to = tmp(job, 'overlaid.pdf');
    // qpdf places each layer as the page is shown: a page whose rotation was just set gets its upright text right.
    await job.engines.run(
      'stamp',
      (f) => f(base, to, { stamp: layers, map: overlaid.map((d, i) => ({ page: d.page, stampPage: i + 1 })) }, job.ctx),
      job.signal,
    );
    base = to;
  }
  const replaced = new Map<number, DonePage & { image: string }>();
  for (const d of done) if (d.image) replaced.set(d.page, { ...d, image: d.image });
  if (!replaced.size) return { path: base, pages: total };
  // The document again, page for page: runs of kept pages, and the replaced pages' new ones.
  const parts: string[] = [];
  let run: number[] = [];
  const flush = async () => {
    if (!run.length) return;
    const part = tmp(job, `kept-${run[0]}.pdf`);
    const pages = run;
    await job.engines.run('selectPages', (f) => f(base, part, pages, job.ctx), job.signal);
    parts.push(part);
    run = [];
  };
  for (let p = 1; p <= total; p++) {
    const r = replaced.get(p);
    if (!r) {
      run.push(p);
      continue;
    }
    await flush();
    parts.push(await imagePage(job, r));
  }
  await flush();
  return { path: await merge(job, parts, 'searchable.pdf'), pages: total };
}
