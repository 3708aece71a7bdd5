import { PDFName, type PDFPage } from 'pdf-lib';
import type { PageResize, PdfRect } from '../../operations/pdf/interfaces';

/** The boxes a page may carry besides MediaBox and CropBox; absent ones default to the CropBox and stay absent. */
const innerBoxes = [
  {
    key: 'BleedBox',
    get: (p: PDFPage) => p.getBleedBox(),
    set: (p: PDFPage, r: PdfRect) => p.setBleedBox(r.x, r.y, r.width, r.height),
  },
  {
    key: 'TrimBox',
    get: (p: PDFPage) => p.getTrimBox(),
    set: (p: PDFPage, r: PdfRect) => p.setTrimBox(r.x, r.y, r.width, r.height),
  },
  {
    key: 'ArtBox',
    get: (p: PDFPage) => p.getArtBox(),
    set: (p: PDFPage, r: PdfRect) => p.setArtBox(r.x, r.y, r.width, r.height),
  },
];

function intersect(a: PdfRect, b: PdfRect): PdfRect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : null;
}

function setVisible(page: PDFPage, r: PdfRect): void {
  page.setMediaBox(r.x, r.y, r.width, r.height);
  page.setCropBox(r.x, r.y, r.width, r.height);
}

/**
 * Crop: MediaBox and CropBox become the rectangle, so that printers and tools that ignore the CropBox crop too; a
 * bleed, trim or art box is kept within it.
 */
function cropPage(page: PDFPage, r: PdfRect): void {
  const inner = innerBoxes.filter((b) => page.node.has(PDFName.of(b.key))).map((b) => ({ ...b, box: b.get(page) }));
  setVisible(page, r);
  for (const b of inner) b.set(page, intersect(b.box, r) ?? r);
}

/**
 * Scale onto a sheet: content and annotations scaled uniformly to fit the visible box into the sheet, and the sheet
 * placed around them so that they sit centred. The sheet's origin need not be 0,0: moving it costs nothing, where
 * moving the content would mean moving every annotation too.
 */
function fitPage(page: PDFPage, sheet: { width: number; height: number }): void {
  const v = page.getCropBox();
  const s = Math.min(sheet.width / v.width, sheet.height / v.height);
  const inner = innerBoxes.filter((b) => page.node.has(PDFName.of(b.key))).map((b) => ({ ...b, box: b.get(page) }));
  page.scaleContent(s, s);
  page.scaleAnnotations(s, s);
  setVisible(page, {
    x: v.x * s - (sheet.width - v.width * s) / 2,
    y: v.y * s - (sheet.height - v.height * s) / 2,
    width: sheet.width,
    height: sheet.height,
  });
  for (const b of inner)
    b.set(page, { x: b.box.x * s, y: b.box.y * s, width: b.box.width * s, height: b.box.height * s });
}

export function resizePage(page: PDFPage, r: PageResize): void {
  if ('crop' in r) cropPage(page, r.crop);
  else fitPage(page, r.fit);
}
