import { boxOf, type Block, type Line, type TextBlock } from './model';

/**
 * Lines of one run (a column or a single-column stretch, top to bottom) into headings, list items and paragraphs.
 * The body size is the size most of the document's text is set in; a line larger than it, or bold and short, is a
 * heading, its level the rank of its size among the headings' sizes.
 */

export interface TypeScale {
  body: number;
  /** Lines read by OCR: the marks tesseract reads bullets as (¢ « ° ©) are bullets too. */
  ocr?: boolean;
  /** Heading sizes, largest first: level = index + 1 (bold at body size comes after them). */
  headings: number[];
}

const HEADING_RATIO = 1.15;
const MAX_HEADING_WORDS = 14;

const OCR_BULLET = /^\s*([¢«°©®»])\s+(?=\S)/;
const MARKER = /^\s*((?:[•◦▪‣·●○■□►➢\-–—*])|(?:\d{1,3}[.)])|(?:[a-zA-Z][.)])|(?:[ivxlcIVXLC]{1,6}[.)]))\s+(?=\S)/;

export function scaleOf(lines: Line[]): TypeScale {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const s = Math.round(l.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + l.text.trim().length);
  }
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const headings = [...weight.keys()].filter((s) => s >= body * HEADING_RATIO).sort((a, b) => b - a);
  return { body, headings };
}

const headingLevel = (scale: TypeScale, l: Line): number | null => {
  const s = Math.round(l.size * 2) / 2;
  const words = l.text.trim().split(/\s+/).length;
  if (words > MAX_HEADING_WORDS) return null;
  const rank = scale.headings.indexOf(s);
  if (rank >= 0) return Math.min(6, rank + 1);
  if (l.bold && s >= scale.body * 0.95 && !/[.,;:]$/.test(l.text.trim())) return Math.min(6, scale.headings.length + 1);
  return null;
};

const isNumbered = (marker: string) => /[.)]$/.test(marker);

/** A line that is only a list marker (printed apart from its text: a tab, a hanging indent, OCR's word gaps). */
const MARKER_ONLY = /^([•◦▪‣·●○■□►➢\-–—*¢«°©®»]|\d{1,3}[.)]|[a-zA-Z][.)]|[ivxlcIVXLC]{1,6}[.)])$/;

/** A marker printed apart joins the text beside it, on the same band, as one line starting at the marker. */
function withMarkersJoined(run: Array<Line | Block>): Array<Line | Block> {
  const out: Array<Line | Block> = [];
  for (let i = 0; i < run.length; i++) {
    const m = run[i]!;
    const next = run[i + 1];
    if ('x' in m && next && 'x' in next && MARKER_ONLY.test(m.text.trim()) && next.x > m.x) {
      const sameBand = Math.abs(m.y + m.height / 2 - (next.y + next.height / 2)) < Math.max(m.height, next.height) / 2;
      if (sameBand) {
        out.push({ ...next, text: `${m.text.trim()} ${next.text.trim()}`, x: m.x, width: next.x + next.width - m.x });
        i++;
        continue;
      }
    }
    out.push(m);
  }
  return out;
}

/** Lines of one run into blocks. Images and tables pass through in place. */
export function blocksOf(page: number, lines: Array<Line | Block>, scale: TypeScale): Block[] {
  const run = withMarkersJoined(lines);
  const out: Block[] = [];
  let open: TextBlock | null = null;
  let last: Line | null = null;
  // List indents met in this run, smallest first: an item's nesting is the rank of its indent.
  const indents: number[] = [];
  const depthOf = (x: number) => {
    let i = indents.findIndex((v) => Math.abs(v - x) < 6);
    if (i < 0) {
      indents.push(x);
      indents.sort((a, b) => a - b);
      i = indents.findIndex((v) => v === x);
    }
    return i;
  };
  const close = () => {
    if (open) out.push(open);
    open = null;
  };
  for (const item of run) {
    if (!('x' in item)) {
      close();
      last = null;
      out.push(item);
      continue;
    }
    const l = item;
    const text = l.text.trim();
    const gap = last ? l.y - (last.y + last.height) : Infinity;
    const sameStyle = last !== null && Math.abs(last.size - l.size) < 0.6 && last.bold === l.bold;
    const near = gap < Math.max(l.size, last?.size ?? 0) * 0.45;
    const level = headingLevel(scale, l);
    const marker = MARKER.exec(text) ?? (scale.ocr ? OCR_BULLET.exec(text) : null);
    const base = { page, box: boxOf([l]), font: l.font, size: l.size, bold: l.bold };
    if (level !== null && !marker) {
      // A heading that wraps: the next line of the same style continues it.
      if (open?.type === 'heading' && sameStyle && near) {
        open.text += ` ${text}`;
        open.box = boxOf([open.box, l]);
      } else {
        close();
        open = { ...base, type: 'heading', text, level };
      }
    } else if (marker) {
      close();
      const m = marker[1]!;
      open = {
        ...base,
        type: 'list-item',
        text: text.slice(marker[0].length).trim(),
        marker: m,
        ordered: isNumbered(m),
        level: depthOf(l.x),
      };
    } else if (
      open &&
      open.type !== 'heading' &&
      sameStyle &&
      near &&
      (open.type === 'paragraph' || l.x > open.box.x + 2)
    ) {
      // Continues the paragraph, or the list item whose text it is indented under.
      open.text = joinLines(open.text, text);
      open.box = boxOf([open.box, l]);
    } else {
      close();
      open = { ...base, type: 'paragraph', text };
    }
    last = l;
  }
  close();
  return out;
}

/** A word cut by a hyphen at a line's end is joined again. */
const joinLines = (a: string, b: string) => (/[a-z]-$/.test(a) && /^[a-z]/.test(b) ? a.slice(0, -1) + b : `${a} ${b}`);
