import type { LayoutText } from '../pdf/interfaces';
import type { OcrLine } from '../ocr/interfaces';

/**
 * OCR lines as layout lines, in points. tesseract reads a table row as one line; cut at word gaps wider than a word
 * space can be (as pdftohtml cuts printed text), its cells become pieces of their own, for the table finder.
 */

/** A gap wider than this share of the line's height separates pieces (a word space is about a third of it). */
const PIECE_GAP = 1.2;
const RULE = /^[|¦]+$/;

export function ocrPieces(lines: OcrLine[], dpi: number): LayoutText[] {
  const k = 72 / dpi;
  const out: LayoutText[] = [];
  for (const l of lines) {
    if (!l.text.trim()) continue;
    const words = [...l.words].filter((w) => w.text.trim()).sort((a, b) => a.x - b.x);
    const groups: (typeof words)[] = [];
    let cut = false;
    for (const w of words) {
      // A table's vertical rule, read as a bar: it separates cells and is no text.
      if (RULE.test(w.text)) {
        cut = true;
        continue;
      }
      const last = groups.at(-1);
      const prev = last?.at(-1);
      if (!cut && last && prev && w.x - (prev.x + prev.width) <= l.height * PIECE_GAP) last.push(w);
      else groups.push([w]);
      cut = false;
    }
    const pieces = groups.length ? groups : [[{ text: l.text, x: l.x, y: l.y, width: l.width, height: l.height }]];
    for (const g of pieces) {
      const x = Math.min(...g.map((w) => w.x));
      const right = Math.max(...g.map((w) => w.x + w.width));
      out.push({
        text: g.map((w) => w.text).join(' '),
        x: x * k,
        y: l.y * k,
        width: (right - x) * k,
        height: l.height * k,
        // The line's height, the same for each of its pieces: sizes compare from line to line.
        size: l.height * k,
        font: 'OCR',
        bold: false,
        italic: false,
      });
    }
  }
  return out;
}
