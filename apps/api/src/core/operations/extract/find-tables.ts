import { boxOf, type Line, type TableBlock, type TableRow } from './model';
import { gapsOf, right, type Strip } from './strips';

/**
 * Tables among the strips of a page region: runs of two or more strips each split into several short pieces by wide
 * gaps, whose pieces fall into the same column positions. Prose set in columns has the gaps too, but its pieces are
 * long lines filling their column; table cells are short.
 */

const MAX_CELL_WORDS = 6;

const words = (s: string) => s.trim().split(/\s+/).length;

/** Wide enough to separate cells: more than the widest word space pdftohtml keeps within one line. */
const wideGap = (strip: Strip) => {
  const size = Math.max(...strip.lines.map((l) => l.size));
  return gapsOf(strip).filter((g) => g.to - g.from >= size * 0.9).length > 0;
};

/** Column intervals of a run of strips: the union of the x extents of their pieces. */
function columnsOf(lines: Line[]): Array<{ from: number; to: number }> {
  const spans = lines.map((l) => ({ from: l.x, to: right(l) })).sort((a, b) => a.from - b.from);
  const cols: Array<{ from: number; to: number }> = [];
  for (const s of spans) {
    const last = cols[cols.length - 1];
    if (last && s.from <= last.to + 2) last.to = Math.max(last.to, s.to);
    else cols.push({ ...s });
  }
  return cols;
}

/** A row of the table and the strips under it that continue its cells (text that wraps in a cell). */
interface RowStrips {
  row: Strip;
  more: Strip[];
}

function asTable(page: number, run: RowStrips[]): TableBlock | null {
  const lines = run.flatMap((r) => [r.row, ...r.more].flatMap((s) => s.lines));
  const cols = columnsOf(lines);
  if (cols.length < 2) return null;
  const meanWords = lines.reduce((n, l) => n + words(l.text), 0) / lines.length;
  if (meanWords > MAX_CELL_WORDS) return null;
  const rows: TableRow[] = run.map((r) => {
    const strips = [r.row, ...r.more];
    const top = Math.min(...strips.map((s) => s.top));
    const bottom = Math.max(...strips.map((s) => s.bottom));
    const cells = cols.map((c) => {
      const inCol = strips.flatMap((s) => s.lines).filter((l) => l.x >= c.from - 1 && right(l) <= c.to + 1);
      const box = inCol.length ? boxOf(inCol) : { x: c.from, y: top, width: c.to - c.from, height: bottom - top };
      return { text: inCol.map((l) => l.text.trim()).join(' '), box };
    });
    return { cells, box: boxOf(cells.map((c) => c.box)) };
  });
  // Most rows must fill most columns: two ragged lines of prose side by side would not.
  const full = rows.filter((r) => r.cells.filter((c) => c.text).length >= Math.max(2, cols.length - 1)).length;
  if (full < Math.max(2, Math.ceil(rows.length * 0.6))) return null;
  const box = boxOf(rows.map((r) => r.box));
  const text = rows.map((r) => r.cells.map((c) => c.text).join('\t')).join('\n');
  return { type: 'table', page, box, text, rows };
}

/**
 * A strip just under `above` (closer than rows are spaced) whose pieces each stay in one column's slot (from its start
 * to the next column's): the wrapped text of cells of the row above.
 */
function continues(strip: Strip, above: Strip, cols: Array<{ from: number; to: number }>): boolean {
  const size = Math.max(...strip.lines.map((l) => l.size));
  if (strip.top - above.bottom > size * 0.5) return false;
  return strip.lines.every((l) => cols.some((c, k) => l.x >= c.from - 1 && right(l) < (cols[k + 1]?.from ?? Infinity)));
}

/**
 * The tables of a region and the strips left over. A cell whose text wraps gives a strip whose pieces all lie in the
 * columns of the rows above, just under the row: it joins that row.
 */
export function findTables(page: number, strips: Strip[]): { tables: TableBlock[]; rest: Strip[] } {
  const tables: TableBlock[] = [];
  const rest: Strip[] = [];
  const multi = (s: Strip) => s.lines.length >= 2 && wideGap(s);
  let i = 0;
  while (i < strips.length) {
    const run: RowStrips[] = [];
    let j = i;
    while (j < strips.length) {
      const s = strips[j]!;
      const last = run[run.length - 1];
      if (multi(s)) run.push({ row: s, more: [] });
      else if (last && continues(s, last.more.at(-1) ?? last.row, columnsOf(run.flatMap((r) => r.row.lines))))
        last.more.push(s);
      else break;
      j++;
    }
    const table = run.length >= 2 ? asTable(page, run) : null;
    if (table) {
      tables.push(table);
      i = j;
    } else {
      rest.push(strips[i]!);
      i++;
    }
  }
  return { tables, rest };
}
