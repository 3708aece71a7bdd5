import { copyFile } from 'node:fs/promises';
import { EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { measurePages } from './page-ink';

export interface RemoveBlankPagesOptions {
  /** A page is blank when at most this share of its cells is ink (0-1). */
  threshold: number;
  /** Gray level (0-255) from which a pixel counts as paper. */
  whiteLevel: number;
  /** The pages that may be removed (default all). */
  pages?: string;
}

export interface RemoveBlankPagesResult extends OutputFile {
  /** The pages removed, 1-based, in the input's numbering. */
  removed: number[];
}

/**
 * Blank pages are judged on a 72 dpi rendering averaged over cells of 4 × 4 pixels (4 pt, 1.4 mm): a scanner's lone
 * specks fade into the paper's grey there, where a stroke or a mark that fills its cells stays dark. (Rendering at a
 * lower resolution does not average: pdftoppm keeps specks dark, each then covering a larger share of the page.)
 */
const BLANK_DPI = 72;
const BLANK_CELL = 4;

/**
 * Remove the pages with no text and next to no ink. Text is read first (a page with any is kept without being
 * rendered); the others are rendered and measured. A document that is blank throughout is refused (ALL_PAGES_BLANK):
 * there would be no PDF to answer with.
 */
export async function removeBlankPages(
  job: PdfJob,
  input: PreparedPdf,
  o: RemoveBlankPagesOptions,
): Promise<RemoveBlankPagesResult> {
  const candidates = parsePageSet(o.pages, input.pages, 'pages');
  const { value: texts } = await job.engines.run(
    'extractText',
    (f) => f(input.path, { pages: candidates, layout: false, words: false }, job.ctx),
    job.signal,
  );
  const withText = new Set(texts.filter((t) => /\S/.test(t.text)).map((t) => t.page));
  const inks = await measurePages(
    job,
    input,
    candidates.filter((p) => !withText.has(p)),
    { dpi: BLANK_DPI, cell: BLANK_CELL, whiteLevel: o.whiteLevel, name: 'blank' },
  );
  const removed = inks.filter((i) => i.share <= o.threshold).map((i) => i.page);
  if (removed.length === input.pages) {
    throw new EngineError(
      'ALL_PAGES_BLANK',
      `file: all ${input.pages} pages are blank (no text, at most ${o.threshold} of each page inked); nothing would be left. A lower threshold or whiteLevel counts fainter marks as content`,
      { details: { field: 'file', pages: input.pages, threshold: o.threshold, whiteLevel: o.whiteLevel } },
    );
  }
  const file = out(job, 'no-blank-pages.pdf');
  const gone = new Set(removed);
  const kept = Array.from({ length: input.pages }, (_, i) => i + 1).filter((p) => !gone.has(p));
  if (removed.length) {
    await job.engines.run('selectPages', (f) => f(input.path, file, kept, job.ctx), job.signal);
  } else {
    await copyFile(input.path, file);
  }
  return { path: file, name: 'no-blank-pages', pages: kept.length, removed };
}
