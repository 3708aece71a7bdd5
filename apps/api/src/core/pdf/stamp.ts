import { writeFile } from 'node:fs/promises';
import { PDFDocument, PDFEmbeddedPage, degrees, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { EngineError } from '../errors';
import type { PageBox } from '../operations/pdf/interfaces';
import { parseHexColor } from '../qr/png';
import { drawableText, embedFontFor, type FontFamily } from './fonts';

/**
 * Stamps: small PDFs drawn with pdf-lib, one page per distinct page geometry (watermarks) or per page (page numbers),
 * sized to the visible page as displayed. The stamp engine (qpdf --overlay, or pdf-lib) lays them over the document.
 */

export const stampPositions = [
  'center',
  'top-left',
  'top-center',
  'top-right',
  'middle-left',
  'middle-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
  'diagonal',
] as const;
export type StampPosition = (typeof stampPositions)[number];

export interface TextMark {
  kind: 'text';
  text: string;
  fontSize?: number;
  font?: FontFamily;
}
export interface ImageMark {
  kind: 'image';
  bytes: Uint8Array;
  format: 'png' | 'jpg';
  /** Width as a fraction of the page width. */
  scale: number;
}
/** The first page of another PDF (a letterhead, a seal), drawn like an image. */
export interface PdfMark {
  kind: 'pdf';
  bytes: Uint8Array;
  /** Width as a fraction of the page width. */
  scale: number;
}
export interface WatermarkSpec {
  mark: TextMark | ImageMark | PdfMark;
  position: StampPosition;
  opacity: number;
  color: string;
  /** Degrees, counter-clockwise; undefined: 0, or the page diagonal for `diagonal`. */
  rotation?: number;
  repeat: boolean;
  spacingX: number;
  spacingY: number;
  /** Distance from the page edges for edge positions, in points. */
  margin: number;
}

export interface PageNumberSpec {
  position: Exclude<StampPosition, 'diagonal'>;
  format: string;
  startAt: number;
  fontSize: number;
  color: string;
  margin: number;
}

/** The page as displayed: /Rotate 90 or 270 swaps width and height. */
export function displayedSize(b: PageBox): { width: number; height: number } {
  return b.rotate === 90 || b.rotate === 270
    ? { width: b.height, height: b.width }
    : { width: b.width, height: b.height };
}

function toRgb(hex: string, field: string) {
  const c = parseHexColor(hex);
  if (!c)
    throw new EngineError('INVALID_INPUT', `${field}: "${hex}" is not a colour (valid: #rgb or #rrggbb)`, {
      details: { field },
    });
  return rgb(c[0] / 255, c[1] / 255, c[2] / 255);
}

/** Watermark text as drawn: normalised, with the font chosen for it. */
interface DrawnText {
  font: PDFFont;
  text: string;
  size?: number;
}

interface Item {
  w: number;
  h: number;
  /** Draw the item so that its (unrotated) box's lower-left corner is at the origin, rotated by `rot` about it. */
  draw(page: PDFPage, x: number, y: number, rot: number): void;
}

/** Centre point of an item of rotated size bw×bh at `position` on a page of size W×H. */
function anchor(
  position: StampPosition,
  W: number,
  H: number,
  bw: number,
  bh: number,
  margin: number,
): [number, number] {
  const [v, hz] = position === 'center' || position === 'diagonal' ? ['middle', 'center'] : position.split('-');
  const cx = hz === 'left' ? margin + bw / 2 : hz === 'right' ? W - margin - bw / 2 : W / 2;
  const cy = v === 'top' ? H - margin - bh / 2 : v === 'bottom' ? margin + bh / 2 : H / 2;
  return [cx, cy];
}

/** Draw `item` rotated by `rot` degrees with its centre at (cx, cy). */
function drawCentered(page: PDFPage, item: Item, cx: number, cy: number, rot: number): void {
  const r = (rot * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  const x = cx - (c * item.w) / 2 + (s * item.h) / 2;
  const y = cy - (s * item.w) / 2 - (c * item.h) / 2;
  item.draw(page, x, y, rot);
}

function rotatedBox(w: number, h: number, rot: number) {
  const r = (rot * Math.PI) / 180;
  return {
    bw: Math.abs(w * Math.cos(r)) + Math.abs(h * Math.sin(r)),
    bh: Math.abs(w * Math.sin(r)) + Math.abs(h * Math.cos(r)),
  };
}

/** Build the watermark stamp; returns, per page, which stamp page to lay on it. */
export async function buildWatermarkStamp(
  boxes: PageBox[],
  spec: WatermarkSpec,
  output: string,
): Promise<Array<{ page: number; stampPage: number }>> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const color = toRgb(spec.color, 'color');
  let drawn: DrawnText | undefined;
  let image: PDFImage | PDFEmbeddedPage | undefined;
  if (spec.mark.kind === 'text') {
    const text = drawableText(spec.mark.text);
    drawn = {
      font: await embedFontFor(doc, spec.mark.font ?? 'helvetica-bold', text, 'text'),
      text,
      size: spec.mark.fontSize,
    };
  } else if (spec.mark.kind === 'pdf') {
    image = await embedFirstPage(doc, spec.mark.bytes);
  } else {
    try {
      image = spec.mark.format === 'png' ? await doc.embedPng(spec.mark.bytes) : await doc.embedJpg(spec.mark.bytes);
    } catch (err) {
      throw new EngineError(
        'INVALID_INPUT',
        'image: the watermark image could not be read (valid: PNG, JPEG, WebP, GIF, TIFF)',
        {
          cause: err,
          details: { field: 'image' },
        },
      );
    }
  }

  const byGeometry = new Map<string, number>();
  const map: Array<{ page: number; stampPage: number }> = [];
  for (const b of boxes) {
    const { width: W, height: H } = displayedSize(b);
    const key = `${W.toFixed(2)}x${H.toFixed(2)}`;
    let n = byGeometry.get(key);
    if (n === undefined) {
      const page = doc.addPage([W, H]);
      drawWatermark(page, W, H, spec, color, drawn, image);
      n = doc.getPageCount();
      byGeometry.set(key, n);
    }
    map.push({ page: b.page, stampPage: n });
  }
  await writeFile(output, await doc.save({ useObjectStreams: false }));
  return map;
}

async function embedFirstPage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFEmbeddedPage> {
  try {
    const [page] = await doc.embedPdf(bytes, [0]);
    return page!;
  } catch (err) {
    throw new EngineError(
      'INVALID_INPUT',
      'pdf: the watermark PDF could not be read (valid: a PDF of one page or more)',
      {
        cause: err,
        details: { field: 'pdf' },
      },
    );
  }
}

function drawWatermark(
  page: PDFPage,
  W: number,
  H: number,
  spec: WatermarkSpec,
  color: ReturnType<typeof rgb>,
  drawn: DrawnText | undefined,
  image: PDFImage | PDFEmbeddedPage | undefined,
): void {
  const diagonalAngle = (Math.atan2(H, W) * 180) / Math.PI;
  const rot = spec.rotation ?? (spec.position === 'diagonal' ? diagonalAngle : 0);
  let item: Item;
  if (drawn) {
    const { font, text } = drawn;
    let size = drawn.size;
    if (size === undefined) {
      // Without a size: about 70 % of the diagonal along it, 48 pt elsewhere; then no larger than fits inside the
      // page's margins once turned by `rot` (a long text at 0° would otherwise run off both sides).
      const w1 = Math.max(1e-3, font.widthOfTextAtSize(text, 1));
      const natural = spec.position === 'diagonal' ? Math.min(200, (0.7 * Math.hypot(W, H)) / w1) : 48;
      const box = rotatedBox(w1, font.heightAtSize(1, { descender: false }), rot);
      const fits = Math.min(Math.max(1, W - 2 * spec.margin) / box.bw, Math.max(1, H - 2 * spec.margin) / box.bh);
      size = Math.max(4, Math.min(natural, fits));
    }
    const w = font.widthOfTextAtSize(text, size);
    const capH = font.heightAtSize(size, { descender: false });
    const sz = size;
    item = {
      w,
      h: capH,
      draw: (p, x, y, r) =>
        p.drawText(text, { x, y, size: sz, font, color, opacity: spec.opacity, rotate: degrees(r) }),
    };
  } else {
    const img = image!;
    const w = Math.max(1, W * (spec.mark as ImageMark | PdfMark).scale);
    const h = (w * img.height) / img.width;
    const at = (x: number, y: number, r: number) => ({
      x,
      y,
      width: w,
      height: h,
      opacity: spec.opacity,
      rotate: degrees(r),
    });
    item = {
      w,
      h,
      draw: (p, x, y, r) =>
        img instanceof PDFEmbeddedPage ? p.drawPage(img, at(x, y, r)) : p.drawImage(img, at(x, y, r)),
    };
  }
  const { bw, bh } = rotatedBox(item.w, item.h, rot);
  if (!spec.repeat) {
    const [cx, cy] = anchor(spec.position, W, H, bw, bh, spec.margin);
    drawCentered(page, item, cx, cy, rot);
    return;
  }
  // Tiled: a grid of centres covering the page, one cell beyond each edge so rotated items reach the corners.
  const stepX = bw + spec.spacingX;
  const stepY = bh + spec.spacingY;
  const cols = Math.ceil(W / stepX) + 2;
  const rows = Math.ceil(H / stepY) + 2;
  const x0 = W / 2 - Math.floor(cols / 2) * stepX;
  const y0 = H / 2 - Math.floor(rows / 2) * stepY;
  if (cols * rows > 5000) {
    throw new EngineError(
      'INVALID_INPUT',
      'spacingX, spacingY: the tiles are too dense (more than 5000 per page); increase the spacing or the size',
      {
        details: { field: 'spacingX' },
      },
    );
  }
  for (let i = 0; i < cols; i++)
    for (let j = 0; j < rows; j++) drawCentered(page, item, x0 + i * stepX, y0 + j * stepY, rot);
}

/** Build one stamp page per numbered page; `{n}` and `{total}` are replaced. */
export async function buildPageNumberStamp(
  boxes: PageBox[],
  totalPages: number,
  spec: PageNumberSpec,
  output: string,
): Promise<Array<{ page: number; stampPage: number }>> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const format = drawableText(spec.format);
  const font = await embedFontFor(doc, 'helvetica', `${format.replace(/\{n\}|\{total\}/g, '')}0123456789`, 'format');
  const color = toRgb(spec.color, 'color');
  const total = totalPages - 1 + spec.startAt;
  const map: Array<{ page: number; stampPage: number }> = [];
  for (const b of boxes) {
    const { width: W, height: H } = displayedSize(b);
    const text = format.replace(/\{n\}/g, String(b.page - 1 + spec.startAt)).replace(/\{total\}/g, String(total));
    const page = doc.addPage([W, H]);
    const w = font.widthOfTextAtSize(text, spec.fontSize);
    const h = font.heightAtSize(spec.fontSize, { descender: false });
    const [cx, cy] = anchor(spec.position, W, H, w, h, spec.margin);
    page.drawText(text, { x: cx - w / 2, y: cy - h / 2, size: spec.fontSize, font, color });
    map.push({ page: b.page, stampPage: doc.getPageCount() });
  }
  await writeFile(output, await doc.save({ useObjectStreams: false }));
  return map;
}
