import type { Box } from './model';

/**
 * Reading order of the pieces of a page (lines, tables, images): column by column where the page sets text in
 * columns. Pieces wider than most of the region (a title across the columns, a full-width table) cut the page into
 * bands; in a band, an x range no piece covers, with text on both sides, is a gutter: the columns left of it are read
 * before those right of it, each in turn the same way.
 */

export interface Piece {
  box: Box;
  /** Its text, to tell a column of prose from a column of list bullets. */
  text: string;
}

const SPANNING = 0.6;
const MIN_COLUMN_CHARS = 4;

const right = (b: Box) => b.x + b.width;
const byTop = <P extends Piece>(a: P, b: P) => a.box.y - b.box.y || a.box.x - b.box.x;

/** The gutters of a band: x ranges no piece covers, at least `minGap` wide, with pieces on both sides. */
function gutters<P extends Piece>(pieces: P[], minGap: number): number[] {
  const spans = pieces.map((p) => ({ from: p.box.x, to: right(p.box) })).sort((a, b) => a.from - b.from);
  const cuts: number[] = [];
  let reach = spans[0]?.to ?? 0;
  for (const s of spans.slice(1)) {
    if (s.from - reach >= minGap) cuts.push((s.from + reach) / 2);
    reach = Math.max(reach, s.to);
  }
  return cuts;
}

/** Pieces split at the cuts, each column's pieces in one list; null when a column is not text (bullets, numbers). */
function columns<P extends Piece>(pieces: P[], cuts: number[]): P[][] | null {
  const cols: P[][] = cuts.map(() => []);
  cols.push([]);
  for (const p of pieces) cols[cuts.filter((c) => p.box.x > c).length]!.push(p);
  const texty = cols.every(
    (c) => c.length > 0 && c.reduce((n, p) => n + p.text.trim().length, 0) / c.length >= MIN_COLUMN_CHARS,
  );
  return texty ? cols : null;
}

/**
 * The pieces as runs read in order: each run is the pieces of one column (or of a single-column stretch) top to
 * bottom. Paragraphs are never joined across runs.
 */
export function readingOrder<P extends Piece>(pieces: P[], minGap: number, depth = 0): P[][] {
  if (pieces.length < 2 || depth > 4) return pieces.length ? [[...pieces].sort(byTop)] : [];
  const left = Math.min(...pieces.map((p) => p.box.x));
  const width = Math.max(...pieces.map((p) => right(p.box))) - left;
  const spanning = pieces.filter((p) => p.box.width >= width * SPANNING).sort(byTop);
  const rest = pieces.filter((p) => p.box.width < width * SPANNING).sort(byTop);
  // Bands: the pieces between one spanning piece and the next (by their middle), then the spanning piece itself.
  const runs: P[][] = [];
  let single: P[] = [];
  const flush = () => {
    if (single.length) runs.push(single.sort(byTop));
    single = [];
  };
  const band = (members: P[]) => {
    if (!members.length) return;
    const cols = members.length >= 2 ? columns(members, gutters(members, minGap)) : null;
    if (cols && cols.length > 1) {
      flush();
      for (const c of cols) runs.push(...readingOrder(c, minGap, depth + 1));
    } else single.push(...members);
  };
  let from = 0;
  for (const s of spanning) {
    const limit = s.box.y + s.box.height / 2;
    const members: P[] = [];
    while (from < rest.length && rest[from]!.box.y + rest[from]!.box.height / 2 < limit) members.push(rest[from++]!);
    band(members);
    single.push(s);
  }
  band(rest.slice(from));
  flush();
  return runs;
}
