import { readFile, rm } from 'node:fs/promises';
import { EngineError } from '../../errors';
import type { PdfJob, PreparedPdf } from './job';

/**
 * What is drawn on pages, measured on a gray rendering of them (the render chain's 8-bit PGM): how much of a page
 * is ink, and where. Rendering judges what a reader sees, whatever drew it (text, vector paths, a scanned image),
 * where reading the content stream would take an invisible white rectangle for content.
 */

export interface PageInk {
  page: number;
  /** Share of the page's cells (pixels when a cell is one) darker than the white level, 0-1. */
  share: number;
  /** The rendering's size in pixels, as displayed (rotation applied). */
  width: number;
  height: number;
  /** Where the ink is, in pixels, origin top-left (whole cells), or null when there is none. */
  bounds: { left: number; top: number; right: number; bottom: number } | null;
}

interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Binary PGM (P5, 8-bit): the header is three numbers after the magic, then one byte a pixel. */
export function parsePgm(data: Buffer): Gray {
  const header = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s/.exec(
    data.subarray(0, 200).toString('latin1'),
  );
  if (!header || Number(header[3]) > 255)
    throw new EngineError('ENGINE_FAILED', 'The page rendering is not an 8-bit PGM', {});
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = data.subarray(header[0].length, header[0].length + width * height);
  if (pixels.length !== width * height) throw new EngineError('ENGINE_FAILED', 'The page rendering is cut short', {});
  return { width, height, pixels };
}

/**
 * Count and locate ink: the cells of `cell` × `cell` pixels whose mean is darker than `whiteLevel` (a pixel each
 * when `cell` is 1). Averaging over cells makes a lone dark speck of a scan fade into the paper around it, where a
 * stroke or a mark that fills its cells stays dark.
 */
export function measureInk(gray: Gray, whiteLevel: number, cell = 1): Omit<PageInk, 'page'> {
  const { width, height, pixels } = gray;
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const sums = new Float64Array(cols);
  let ink = 0;
  let left = cols;
  let right = -1;
  let top = rows;
  let bottom = -1;
  for (let r = 0; r < rows; r++) {
    sums.fill(0);
    const y1 = Math.min(height, (r + 1) * cell);
    for (let y = r * cell; y < y1; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) sums[(x / cell) | 0]! += pixels[row + x]!;
    }
    let rowInk = 0;
    for (let c = 0; c < cols; c++) {
      const area = (Math.min(width, (c + 1) * cell) - c * cell) * (y1 - r * cell);
      if (sums[c]! < whiteLevel * area) {
        rowInk++;
        if (c < left) left = c;
        if (c > right) right = c;
      }
    }
    if (rowInk) {
      ink += rowInk;
      if (r < top) top = r;
      bottom = r;
    }
  }
  return {
    share: cols * rows ? ink / (cols * rows) : 0,
    width,
    height,
    bounds: ink
      ? {
          left: left * cell,
          top: top * cell,
          right: Math.min(width, (right + 1) * cell),
          bottom: Math.min(height, (bottom + 1) * cell),
        }
      : null,
  };
}

/** Pages rendered at once: their renderings wait on disk until read (a 500-page file at 72 dpi is ~250 MB). */
const BATCH = 16;

/**
 * Render `pages` in gray (8-bit PGM) at `dpi` through the render chain, a batch at a time, and hand each rendering to
 * `read` in page order; a batch's files are removed once read.
 */
export async function forEachGrayPage(
  job: PdfJob,
  input: PreparedPdf,
  pages: number[],
  opts: { dpi: number; name: string },
  read: (page: number, file: string) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < pages.length; i += BATCH) {
    const batch = pages.slice(i, i + BATCH);
    const dir = await job.ws.subdir(`${opts.name}-render-${i}`);
    const { value: rendered } = await job.engines.run(
      'render',
      (f) => f(input.path, dir, { format: 'pgm', dpi: opts.dpi, pages: batch }, job.ctx),
      job.signal,
    );
    const byPage = new Map(rendered.map((r) => [r.page, r.path]));
    for (const page of batch) {
      const file = byPage.get(page);
      if (!file) throw new EngineError('ENGINE_FAILED', `Page ${page} was not rendered`, {});
      await read(page, file);
      job.progress?.(i + batch.indexOf(page) + 1, pages.length);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** Render `pages` in gray at `dpi` and measure each (see measureInk). */
export async function measurePages(
  job: PdfJob,
  input: PreparedPdf,
  pages: number[],
  opts: { dpi: number; whiteLevel: number; cell?: number; name: string },
): Promise<PageInk[]> {
  const out: PageInk[] = [];
  await forEachGrayPage(job, input, pages, opts, async (page, file) => {
    out.push({ page, ...measureInk(parsePgm(await readFile(file)), opts.whiteLevel, opts.cell) });
  });
  return out;
}
