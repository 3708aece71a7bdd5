import { readFile, writeFile } from 'node:fs/promises';
import type { PdfJob } from '../pdf/job';
import { parsePgm } from '../pdf/page-ink';
import { tmp } from './common';

/**
 * A page cut in two for two tesseracts at once, when it would otherwise be read alone while a core stands idle (the
 * odd last page of a document). The cut is a band of rows blank across the whole width between text blocks: a
 * paragraph gap, never through a line. A page set in columns is never cut (a cut across columns would read the top
 * of each column before the bottom of the first). Each half is the whole page with the other half blanked, so both
 * readings keep the page's coordinates and their text layers lie over the page as they are.
 */

export interface PageHalves {
  top: string;
  bottom: string;
}

type Gray = ReturnType<typeof parsePgm>;

const DARK = 128;
/** Fewer text lines than this: the second tesseract's start-up would cost more than the half it saves. */
const MIN_LINES = 12;
/** The cut's rows must lie in the middle of the text: each half keeps at least this share of its lines. */
const MIN_SHARE = 0.3;
/** A blank column this wide (in median line heights) between inked columns makes the page a columned one. */
const GUTTER_LINES = 1;

/** Rows with ink, as runs: the page's text lines (and figures), top to bottom. */
function inkRuns(g: Gray): Array<{ from: number; to: number }> {
  const runs: Array<{ from: number; to: number }> = [];
  let from = -1;
  for (let y = 0; y <= g.height; y++) {
    let ink = false;
    if (y < g.height) {
      const row = y * g.width;
      for (let x = 0; x < g.width; x++) {
        if (g.pixels[row + x]! < DARK) {
          ink = true;
          break;
        }
      }
    }
    if (ink && from < 0) from = y;
    if (!ink && from >= 0) {
      runs.push({ from, to: y });
      from = -1;
    }
  }
  return runs;
}

/** A blank vertical strip at least `min` pixels wide with ink on both sides, within the rows `from`-`to`. */
function hasGutter(g: Gray, from: number, to: number, min: number): boolean {
  const cols = new Uint8Array(g.width);
  for (let y = from; y < to; y++) {
    const row = y * g.width;
    for (let x = 0; x < g.width; x++) if (g.pixels[row + x]! < DARK) cols[x] = 1;
  }
  const first = cols.indexOf(1);
  const last = cols.lastIndexOf(1);
  let blank = 0;
  for (let x = first; x <= last; x++) {
    blank = cols[x] ? 0 : blank + 1;
    if (blank >= min) return true;
  }
  return false;
}

/**
 * The row to cut the page at, or null: the middle of the widest blank band between text lines near the middle of the
 * text (widest first: a paragraph gap before a gap between two lines of one paragraph).
 */
export function cutRow(g: Gray): number | null {
  const runs = inkRuns(g);
  if (runs.length < MIN_LINES) return null;
  const heights = runs.map((r) => r.to - r.from).sort((a, b) => a - b);
  const lineHeight = heights[Math.floor(heights.length / 2)]!;
  if (hasGutter(g, runs[0]!.from, runs.at(-1)!.to, lineHeight * GUTTER_LINES)) return null;
  const lo = Math.ceil(runs.length * MIN_SHARE);
  const hi = runs.length - lo;
  let best: { gap: number; at: number; off: number } | null = null;
  for (let i = lo; i <= hi; i++) {
    const gap = runs[i]!.from - runs[i - 1]!.to;
    const off = Math.abs(i - runs.length / 2);
    if (!best || gap > best.gap || (gap === best.gap && off < best.off))
      best = { gap, at: Math.floor((runs[i - 1]!.to + runs[i]!.from) / 2), off };
  }
  // Lines that touch (no blank row between them) are never cut apart.
  return best && best.gap >= 2 ? best.at : null;
}

/** The two halves of an 8-bit PGM page, or null when it has no safe cut (see cutRow). */
export async function splitPage(job: PdfJob, image: string, page: number): Promise<PageHalves | null> {
  if (!image.endsWith('.pgm')) return null;
  const data = await readFile(image);
  const g = parsePgm(data);
  const cut = cutRow(g);
  if (cut === null) return null;
  const header = data.subarray(0, data.length - g.pixels.length);
  const at = cut * g.width;
  // Written in parts (the page's rows, then paper for the other half's): no copy of the page is made.
  const paper = Buffer.alloc(Math.max(at, g.pixels.length - at), 255);
  const half = async (name: string, parts: Buffer[]) => {
    const file = tmp(job, `page-${page}-${name}.pgm`);
    await writeFile(file, [header, ...parts]);
    return file;
  };
  const [top, bottom] = await Promise.all([
    half('top', [g.pixels.subarray(0, at), paper.subarray(0, g.pixels.length - at)]),
    half('bottom', [paper.subarray(0, at), g.pixels.subarray(at)]),
  ]);
  return { top, bottom };
}
