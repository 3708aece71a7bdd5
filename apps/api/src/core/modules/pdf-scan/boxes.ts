import type { PageBox } from '../../operations/pdf/interfaces';
import type { PdfDocument } from './document';
import { giveUp } from './limits';
import { Real, type PdfDict, type PdfValue } from './objects';

/**
 * Page boxes exactly as the poppler engine reports them (pdfinfo -box, TrimBox line, and rot), so that callers get
 * the same answer whichever engine ran. That is poppler's PageAttrs: /MediaBox, /CropBox and /Rotate inherited down
 * the page tree; on a /Type /Page a CropBox wider or taller than the MediaBox takes the MediaBox's extent on that
 * axis; TrimBox is the page's own, else the CropBox; boxes are clipped to the MediaBox; and the numbers go through
 * pdfinfo's two-decimal printing.
 */

interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface PageAttrs {
  mediaBox: Rect;
  cropBox: Rect;
  haveCropBox: boolean;
  /** The node's own /TrimBox, else its CropBox (not inherited). */
  trimBox: Rect;
  rotate: number;
}

/** Above the root: US Letter, what poppler assumes when a file has no /MediaBox. */
export const rootAttrs: PageAttrs = {
  mediaBox: { x1: 0, y1: 0, x2: 612, y2: 792 },
  cropBox: { x1: 0, y1: 0, x2: 0, y2: 0 },
  haveCropBox: false,
  trimBox: { x1: 0, y1: 0, x2: 0, y2: 0 },
  rotate: 0,
};

export function inheritAttrs(doc: PdfDocument, parent: PageAttrs, node: PdfDict): PageAttrs {
  const mediaBox = readBox(doc, node, 'MediaBox') ?? parent.mediaBox;
  const ownCrop = readBox(doc, node, 'CropBox');
  const haveCropBox = ownCrop !== null || parent.haveCropBox;
  let cropBox = ownCrop ?? (parent.haveCropBox ? parent.cropBox : mediaBox);
  if (node.get('Type') === 'Page') cropBox = cropWithinMedia(cropBox, mediaBox);
  const trimBox = readBox(doc, node, 'TrimBox') ?? cropBox;
  const rotate = normaliseRotation(readRotate(doc, node) ?? parent.rotate);
  return { mediaBox, cropBox, haveCropBox, trimBox, rotate };
}

/** The box the poppler engine reports for page `n`, from its attributes, with its rotation. */
export function pageBox(attrs: PageAttrs, n: number): PageBox {
  // pdfinfo prints any angle; the interface promises quarter turns: leave odd ones to poppler.
  if (attrs.rotate % 90 !== 0) throw giveUp('/Rotate is not a multiple of 90');
  const trim = clip(attrs.trimBox, attrs.mediaBox);
  const [x1, y1, x2, y2] = [trim.x1, trim.y1, trim.x2, trim.y2].map(asPrinted) as [number, number, number, number];
  return {
    page: n,
    x: Math.min(x1, x2),
    y: Math.min(y1, y2),
    width: Math.abs(x2 - x1),
    height: Math.abs(y2 - y1),
    rotate: attrs.rotate,
  };
}

const normaliseRotation = (r: number) => ((r % 360) + 360) % 360;

/** Four numbers, not all zero, ordered; null (the inherited box applies) when the entry is anything else. */
function readBox(doc: PdfDocument, dict: PdfDict, key: string): Rect | null {
  const v = doc.resolve(dict.get(key));
  if (!Array.isArray(v) || v.length !== 4) return null;
  const n: number[] = [];
  for (const item of v) {
    const x = numeric(doc.resolve(item));
    if (x === null) return null;
    n.push(x);
  }
  const [a, b, c, d] = n as [number, number, number, number];
  if (a === 0 && b === 0 && c === 0 && d === 0) return null;
  return { x1: Math.min(a, c), y1: Math.min(b, d), x2: Math.max(a, c), y2: Math.max(b, d) };
}

function numeric(v: PdfValue | undefined): number | null {
  if (v instanceof Real) return v.value;
  if (typeof v !== 'number') return null;
  // poppler keeps integers past 32 bits in another type; how it treats them here is not worth guessing.
  if (!isInt32(v)) throw giveUp('box coordinate out of range');
  return v;
}

/** An integer /Rotate (poppler ignores a real one, and one past 32 bits), or null. */
function readRotate(doc: PdfDocument, node: PdfDict): number | null {
  const v = doc.resolve(node.get('Rotate'));
  return typeof v === 'number' && isInt32(v) ? v : null;
}

const isInt32 = (v: number) => v >= -0x80000000 && v <= 0x7fffffff;

function cropWithinMedia(crop: Rect, media: Rect): Rect {
  const r = { ...crop };
  if (r.x2 - r.x1 > media.x2 - media.x1) [r.x1, r.x2] = [media.x1, media.x2];
  if (r.y2 - r.y1 > media.y2 - media.y1) [r.y1, r.y2] = [media.y1, media.y2];
  return r;
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

function clip(r: Rect, to: Rect): Rect {
  return {
    x1: clamp(r.x1, to.x1, to.x2),
    y1: clamp(r.y1, to.y1, to.y2),
    x2: clamp(r.x2, to.x1, to.x2),
    y2: clamp(r.y2, to.y1, to.y2),
  };
}

/** The number pdfinfo's `%8.2f` prints, read back. */
export const asPrinted = (v: number): number => Number(printf2(v));

/**
 * C's `%.2f`: toFixed(2) rounds the same exact binary value, except on an exact tie, where printf rounds half to
 * even and toFixed away from zero. A double is an exact tie at two decimals only when it is an odd multiple of 1/8.
 */
export function printf2(v: number): string {
  if (Math.abs(v) >= 1e15) throw giveUp('box coordinate out of range');
  if (Object.is(v, -0)) return '-0.00';
  const eighths = v * 8;
  if (!Number.isInteger(eighths) || eighths % 2 === 0) return v.toFixed(2);
  const below = Math.floor(v * 100);
  return ((below % 2 === 0 ? below : below + 1) / 100).toFixed(2);
}
