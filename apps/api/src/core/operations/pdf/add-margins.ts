import { EngineError } from '../../errors';
import type { PageResize } from './interfaces';
import { parsePageSet } from '../../pages';
import { boxesFor } from './page-boxes';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { toPageSpace, type LengthUnit } from './crop';

export interface MarginOptions {
  /** Every side, unless a side is given on its own; in `unit`. */
  margin: number;
  top?: number;
  right?: number;
  bottom?: number;
  left?: number;
  unit: LengthUnit;
  pages?: string;
}

const POINTS_PER: Record<LengthUnit, number> = { pt: 1, mm: 72 / 25.4, in: 72 };

/** The largest page PDF readers draw (ISO 32000: 14 400 units, 200 inches, a side). */
const MAX_SIDE = 14_400;

/**
 * Widen pages by white margins: each page's visible box (MediaBox and CropBox) grows by the margins on the sides
 * as the page is shown, rotation applied; the content stays where it is, unscaled, so its text stays text.
 */
export async function addMargins(job: PdfJob, input: PreparedPdf, o: MarginOptions): Promise<OutputFile> {
  const k = POINTS_PER[o.unit];
  const [top, right, bottom, left] = [o.top, o.right, o.bottom, o.left].map((side) => (side ?? o.margin) * k) as [
    number,
    number,
    number,
    number,
  ];
  const boxes = await boxesFor(job, input, parsePageSet(o.pages, input.pages, 'pages'));
  const edits: PageResize[] = boxes.map((b) => {
    const quarter = b.rotate === 90 || b.rotate === 270;
    const [width, height] = quarter ? [b.height, b.width] : [b.width, b.height];
    const grown = { x: -left, y: -bottom, width: width + left + right, height: height + top + bottom };
    if (grown.width > MAX_SIDE || grown.height > MAX_SIDE) {
      throw new EngineError(
        'INVALID_INPUT',
        `margin: page ${b.page} would be ${Math.round(grown.width)} × ${Math.round(grown.height)} pt, past the ${MAX_SIDE} pt a PDF page may measure`,
        { details: { field: 'margin', page: b.page, maxSide: MAX_SIDE } },
      );
    }
    return { page: b.page, crop: toPageSpace(b, grown) };
  });
  const file = out(job, 'margins.pdf');
  await job.engines.run('resizePages', (f) => f(input.path, file, { pages: edits }, job.ctx), job.signal);
  return { path: file, name: 'margins', pages: input.pages };
}
