import { degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Rect } from './geometry';
import type { Rgb } from './images';

/** The label fitted inside a rectangle, upright as the page is shown, in a colour that stands out on the fill. */
export function drawLabel(page: PDFPage, font: PDFFont, label: string, r: Rect, rotate: number, fill: Rgb) {
  const quarter = rotate === 90 || rotate === 270;
  const [along, across] = quarter ? [r.height, r.width] : [r.width, r.height];
  const size = Math.min(across * 0.7, (along * 0.9) / Math.max(font.widthOfTextAtSize(label, 1), 0.001));
  if (size < 2) return;
  const w = font.widthOfTextAtSize(label, size);
  const h = font.heightAtSize(size, { descender: false });
  const light = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 140;
  // Start point of a centred line, in page space, for each way the page may be turned.
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const [x, y] = {
    0: [cx - w / 2, cy - h / 2],
    90: [cx + h / 2, cy - w / 2],
    180: [cx + w / 2, cy + h / 2],
    270: [cx - h / 2, cy + w / 2],
  }[rotate as 0 | 90 | 180 | 270] ?? [cx - w / 2, cy - h / 2];
  page.drawText(label, { x, y, size, font, color: light ? rgb(0, 0, 0) : rgb(1, 1, 1), rotate: degrees(rotate) });
}
