import { EngineError } from '../../../errors';
import type { PageBox } from '../interfaces';
import type { Rect } from './geometry';

export interface PageArea extends Rect {
  page: number;
}

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  new EngineError('INVALID_INPUT', `areas: ${message}`, { details: { field: 'areas', ...details } });

/** "page:x,y,width,height" items separated by ";" (pt, origin the bottom-left corner of the page as shown). */
export function parseAreas(spec: string | undefined): PageArea[] {
  if (!spec?.trim()) return [];
  return spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const m = /^(\d+)\s*:\s*([^,]+),([^,]+),([^,]+),([^,]+)$/.exec(item);
      const [page, x, y, width, height] = m ? m.slice(1).map(Number) : [];
      if (!m || ![page, x, y, width, height].every(Number.isFinite)) {
        throw invalid(`"${item}" is not "page:x,y,width,height" (e.g. "1:72,700,200,20")`);
      }
      if (width! <= 0 || height! <= 0) throw invalid(`"${item}": width and height must be greater than 0`);
      return { page: page!, x: x!, y: y!, width: width!, height: height! };
    });
}

/** Every area on an existing page and inside it as shown (a hundredth of a point of slack for rounding). */
export function checkAreas(areas: PageArea[], boxes: PageBox[]): void {
  for (const a of areas) {
    const b = boxes.find((box) => box.page === a.page);
    if (!b) throw invalid(`page ${a.page} does not exist (the PDF has ${boxes.length} pages)`, { page: a.page });
    const quarter = b.rotate === 90 || b.rotate === 270;
    const [w, h] = quarter ? [b.height, b.width] : [b.width, b.height];
    if (a.x < -0.01 || a.y < -0.01 || a.x + a.width > w + 0.01 || a.y + a.height > h + 0.01) {
      throw invalid(
        `${a.x},${a.y},${a.width},${a.height} on page ${a.page} goes past the page (${Math.round(w * 100) / 100} × ${Math.round(h * 100) / 100} pt as shown)`,
        { page: a.page },
      );
    }
  }
}
