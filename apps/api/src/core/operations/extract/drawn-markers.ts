import { readFile, rm } from 'node:fs/promises';
import type { PdfJob, PreparedPdf } from '../pdf/job';
import { parsePgm } from '../pdf/page-ink';
import type { Line } from './model';
import type { ReadPage } from './read-pages';

/**
 * List bullets drawn as shapes, not text. Chromium (HTML `<ul>`) paints a disc, circle or square marker as a small
 * filled path before the item's text, so the text layer holds the item without its marker and the list goes unseen.
 * Such a page is rendered (the render chain's gray PGM) and the space left of each indented line looked at: one small
 * compact blob centred on the line, and nothing else there, is its bullet. The line then reads as if the marker were
 * printed (`• text`, starting at the mark), which the list detection takes like any printed bullet.
 */

/** Enough pixels a point to tell a disc (~4 pt across) from a ring or a square. */
const DPI = 144;
const DARK = 160;
/** Pages rendered at once: their renderings wait on disk until looked at (~2 MB a page at this resolution). */
const BATCH = 16;
/** How far left of its text a bullet may sit, in font sizes (Chromium: ~0.7 em; Word: up to ~1.5 em). */
const REACH = 2.5;
/** A bullet's size against its line's font size. */
const MIN_MARK = 0.12;
const MAX_MARK = 0.75;
const PRINTED = /^\s*([•◦▪‣·●○■□►➢\-–—*]|\d{1,3}[.)]|[a-zA-Z][.)]|[ivxlcIVXLC]{1,6}[.)])(\s|$)/;

type Gray = ReturnType<typeof parsePgm>;

interface Blob {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number;
  touchesEdge: boolean;
}

/**
 * Lines that could follow a drawn bullet: not already starting with a printed marker, indented from the page's text
 * margin, with no other text on their band within the reach left of them (a table cell or a second column is not an
 * item).
 */
export function markerCandidates(lines: Line[]): Line[] {
  if (lines.length < 2) return [];
  const margin = Math.min(...lines.map((l) => l.x));
  return lines.filter((l) => {
    if (PRINTED.test(l.text) || l.x < margin + l.size * 0.6) return false;
    const from = l.x - l.size * REACH;
    return !lines.some(
      (o) =>
        o !== l &&
        o.x < l.x &&
        o.x + o.width > from &&
        Math.abs(o.y + o.height / 2 - (l.y + l.height / 2)) < Math.max(o.height, l.height) / 2,
    );
  });
}

/** Connected dark pixels (8-neighbours) of a window of the page, in pixels. */
function blobsIn(g: Gray, x0: number, y0: number, x1: number, y1: number): Blob[] {
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return [];
  const seen = new Uint8Array(w * h);
  const dark = (x: number, y: number) => g.pixels[(y0 + y) * g.width + x0 + x]! < DARK;
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (seen[y * w + x] || !dark(x, y)) continue;
      const b: Blob = { left: x, top: y, right: x, bottom: y, pixels: 0, touchesEdge: false };
      seen[y * w + x] = 1;
      stack.push(x, y);
      while (stack.length) {
        const cy = stack.pop()!;
        const cx = stack.pop()!;
        b.pixels++;
        b.left = Math.min(b.left, cx);
        b.right = Math.max(b.right, cx);
        b.top = Math.min(b.top, cy);
        b.bottom = Math.max(b.bottom, cy);
        if (cx === 0 || cy === 0 || cx === w - 1 || cy === h - 1) b.touchesEdge = true;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = cx + dx;
            const ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx] || !dark(nx, ny)) continue;
            seen[ny * w + nx] = 1;
            stack.push(nx, ny);
          }
        }
      }
      blobs.push({ ...b, left: b.left + x0, right: b.right + x0, top: b.top + y0, bottom: b.bottom + y0 });
    }
  }
  return blobs;
}

/** The marker a blob draws: a ring (its centre light) ◦, a square (its corners dark) ▪, else a disc •. */
function markerOf(g: Gray, b: Blob): string {
  const at = (x: number, y: number) => g.pixels[y * g.width + x]! < DARK;
  const cx = Math.round((b.left + b.right) / 2);
  const cy = Math.round((b.top + b.bottom) / 2);
  if (b.right - b.left >= 4 && !at(cx, cy)) return '◦';
  const corners = [at(b.left, b.top), at(b.right, b.top), at(b.left, b.bottom), at(b.right, b.bottom)];
  return corners.every(Boolean) ? '▪' : '•';
}

/**
 * The line with the bullet drawn left of it, as a printed marker line, or the line as it is. `sx`, `sy`: pixels a
 * point across and down.
 */
export function withDrawnMarker(g: Gray, l: Line, sx: number, sy: number): Line {
  const x0 = Math.max(0, Math.floor((l.x - l.size * REACH) * sx));
  const x1 = Math.min(g.width, Math.floor((l.x - 0.5) * sx));
  const y0 = Math.max(0, Math.floor(l.y * sy));
  const y1 = Math.min(g.height, Math.ceil((l.y + l.height) * sy));
  const blobs = blobsIn(g, x0, y0, x1, y1);
  if (blobs.length !== 1) return l;
  const b = blobs[0]!;
  const w = (b.right - b.left + 1) / sx;
  const h = (b.bottom - b.top + 1) / sy;
  const middle = (b.top + b.bottom + 1) / 2 / sy;
  const fits = (v: number) => v >= l.size * MIN_MARK && v <= l.size * MAX_MARK;
  if (b.touchesEdge || !fits(w) || !fits(h) || w / h > 1.6 || h / w > 1.6) return l;
  if (Math.abs(middle - (l.y + l.height / 2)) > l.height * 0.3) return l;
  const x = b.left / sx;
  return { ...l, text: `${markerOf(g, b)} ${l.text.trim()}`, x, width: l.x + l.width - x };
}

/**
 * The pages with their drawn bullets read as markers. Only pages with candidate lines are rendered (a page of plain
 * paragraphs costs nothing); pages read by OCR are left to it (its bullets are in the recognised text).
 */
export async function withDrawnMarkers(job: PdfJob, pdf: PreparedPdf, pages: ReadPage[]): Promise<ReadPage[]> {
  const wanted = pages.filter((p) => !p.ocr && markerCandidates(p.texts).length > 0);
  const read = new Map<number, ReadPage>();
  for (let i = 0; i < wanted.length; i += BATCH) {
    const batch = wanted.slice(i, i + BATCH);
    const dir = await job.ws.subdir(`drawn-markers-${i}`);
    try {
      const { value: rendered } = await job.engines.run(
        'render',
        (f) => f(pdf.path, dir, { format: 'pgm', dpi: DPI, pages: batch.map((p) => p.page) }, job.ctx),
        job.signal,
      );
      const files = new Map(rendered.map((r) => [r.page, r.path]));
      for (const p of batch) {
        const file = files.get(p.page);
        if (!file) continue;
        const g = parsePgm(await readFile(file));
        const candidates = new Set(markerCandidates(p.texts));
        const [sx, sy] = [g.width / p.width, g.height / p.height];
        read.set(p.page, { ...p, texts: p.texts.map((l) => (candidates.has(l) ? withDrawnMarker(g, l, sx, sy) : l)) });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return pages.map((p) => read.get(p.page) ?? p);
}
