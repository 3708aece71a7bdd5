import type { Box, Line } from './model';

/**
 * A strip: the lines of a page that share a band of height (the cells of a table row, the lines of two columns
 * printed side by side, or one line alone). Strips are the rows the table and column finders reason about.
 */
export interface Strip {
  lines: Line[];
  top: number;
  bottom: number;
}

/** Lines grouped into strips, top to bottom; in a strip, left to right. */
export function stripsOf(lines: Line[]): Strip[] {
  const sorted = [...lines].sort((a, b) => a.y - b.y || a.x - b.x);
  const strips: Strip[] = [];
  for (const l of sorted) {
    const mid = l.y + l.height / 2;
    const s = strips.find((st) => mid > st.top && mid < st.bottom && l.y < st.bottom - l.height * 0.3);
    if (s) {
      s.lines.push(l);
      s.top = Math.min(s.top, l.y);
      s.bottom = Math.max(s.bottom, l.y + l.height);
    } else strips.push({ lines: [l], top: l.y, bottom: l.y + l.height });
  }
  for (const s of strips) s.lines.sort((a, b) => a.x - b.x);
  return strips.sort((a, b) => a.top - b.top);
}

export const right = (b: Box) => b.x + b.width;

/** The gaps between the lines of a strip, left to right: where a gutter or a cell border may run. */
export function gapsOf(strip: Strip): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let reach = -Infinity;
  for (const l of strip.lines) {
    if (reach > -Infinity && l.x > reach) out.push({ from: reach, to: l.x });
    reach = Math.max(reach, right(l));
  }
  return out;
}
