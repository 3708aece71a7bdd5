import { copyFile } from 'node:fs/promises';
import { paperSizes, type TPaperSize } from '@docflow/contracts';
import { EngineError } from '../../errors';
import type { PageBox, PageResize, PdfRect } from './interfaces';
import { parsePageSet } from '../../pages';
import { boxesFor } from './page-boxes';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { measurePages } from './page-ink';

export type CropMode = 'box' | 'content' | 'scale';
export type LengthUnit = 'pt' | 'mm' | 'in';

export interface CropOptions {
  /** Absent: box when `box` is given, scale when `size` is, else content. */
  mode?: CropMode;
  /** "x,y,width,height" in `unit`, from the bottom-left corner of the page as displayed. */
  box?: string;
  unit: LengthUnit;
  /** Around the content (mode content), in `unit`. */
  margin: number;
  size?: TPaperSize;
  pages?: string;
}

const POINTS_PER: Record<LengthUnit, number> = { pt: 1, mm: 72 / 25.4, in: 72 };

/**
 * Content is found on a 72 dpi rendering (a pixel a point) and widened by a pixel on each side, so anti-aliased
 * edges are never cut. Any pixel darker than this counts: a faint grey rule is content too.
 */
const CONTENT_DPI = 72;
const CONTENT_WHITE_LEVEL = 250;

const invalid = (field: string, message: string, details: Record<string, unknown> = {}) =>
  new EngineError('INVALID_INPUT', `${field}: ${message}`, { details: { field, ...details } });

/**
 * The mode the fields ask for, checked before any work: the field each mode needs. A field of another mode is
 * ignored when the mode is named (a form sends all its fields, filled in or not).
 */
export function cropModeOf(o: Pick<CropOptions, 'mode' | 'box' | 'size'>): CropMode {
  const mode = o.mode ?? (o.box !== undefined ? 'box' : o.size !== undefined ? 'scale' : 'content');
  if (mode === 'box' && o.box === undefined)
    throw invalid('box', 'mode=box needs the box to crop to, as "x,y,width,height" (e.g. "36,36,523,770")');
  if (mode === 'scale' && o.size === undefined)
    throw invalid('size', `mode=scale needs a paper size (valid: ${Object.keys(paperSizes).join(', ')})`, {
      valid: Object.keys(paperSizes),
    });
  if (mode === 'box') parseBox(o.box!, 'pt');
  return mode;
}

/** "x,y,width,height" in points; width and height must be positive, x and y not negative. */
function parseBox(spec: string, unit: LengthUnit): PdfRect {
  const [x, y, width, height] = spec.split(',').map((s) => Number(s.trim()) * POINTS_PER[unit]) as [
    number,
    number,
    number,
    number,
  ];
  if (![x, y, width, height].every(Number.isFinite) || spec.split(',').length !== 4)
    throw invalid('box', 'must be "x,y,width,height" (four numbers, e.g. "36,36,523,770")');
  if (x < 0 || y < 0)
    throw invalid('box', 'x and y must not be negative (they start at the page’s bottom-left corner)');
  if (width <= 0 || height <= 0) throw invalid('box', 'width and height must be greater than 0');
  return { x, y, width, height };
}

/** The page's size as displayed: width and height swap on a quarter turn. */
const displayed = (b: PageBox) =>
  b.rotate === 90 || b.rotate === 270 ? { width: b.height, height: b.width } : { width: b.width, height: b.height };

/**
 * A rectangle of the page as displayed (origin its bottom-left corner, rotation applied) in the page's own
 * coordinates, where its boxes are written.
 */
export function toPageSpace(b: PageBox, r: PdfRect): PdfRect {
  const map = (X: number, Y: number): [number, number] => {
    switch (b.rotate) {
      case 90:
        return [b.width - Y, X];
      case 180:
        return [b.width - X, b.height - Y];
      case 270:
        return [Y, b.height - X];
      default:
        return [X, Y];
    }
  };
  const [u1, v1] = map(r.x, r.y);
  const [u2, v2] = map(r.x + r.width, r.y + r.height);
  return {
    x: b.x + Math.min(u1, u2),
    y: b.y + Math.min(v1, v2),
    width: Math.abs(u2 - u1),
    height: Math.abs(v2 - v1),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

function boxCrops(boxes: PageBox[], o: CropOptions): PageResize[] {
  const r = parseBox(o.box!, o.unit);
  return boxes.map((b) => {
    const d = displayed(b);
    // A hundredth of a point of slack: a box typed from the page's own size in mm is rounded.
    if (r.x + r.width > d.width + 0.01 || r.y + r.height > d.height + 0.01) {
      const k = POINTS_PER[o.unit];
      throw invalid(
        'box',
        `"${o.box}" ${o.unit} goes past page ${b.page}, which is ${round(d.width / k)} × ${round(d.height / k)} ${o.unit}`,
        { page: b.page, width: round(d.width / k), height: round(d.height / k), unit: o.unit },
      );
    }
    return { page: b.page, crop: toPageSpace(b, r) };
  });
}

async function contentCrops(job: PdfJob, input: PreparedPdf, boxes: PageBox[], o: CropOptions): Promise<PageResize[]> {
  const inks = await measurePages(
    job,
    input,
    boxes.map((b) => b.page),
    { dpi: CONTENT_DPI, whiteLevel: CONTENT_WHITE_LEVEL, name: 'crop' },
  );
  const margin = o.margin * POINTS_PER[o.unit];
  const crops: PageResize[] = [];
  for (const [i, ink] of inks.entries()) {
    if (!ink.bounds) continue; // nothing drawn: the page keeps its box
    const b = boxes[i]!;
    const d = displayed(b);
    const kx = d.width / ink.width;
    const ky = d.height / ink.height;
    const left = Math.max(0, (ink.bounds.left - 1) * kx - margin);
    const right = Math.min(d.width, (ink.bounds.right + 1) * kx + margin);
    const bottom = Math.max(0, d.height - (ink.bounds.bottom + 1) * ky - margin);
    const top = Math.min(d.height, d.height - (ink.bounds.top - 1) * ky + margin);
    crops.push({
      page: b.page,
      crop: toPageSpace(b, { x: left, y: bottom, width: right - left, height: top - bottom }),
    });
  }
  return crops;
}

/** The sheet in the page's own orientation: a landscape page (wider than high, unrotated) gets a landscape sheet. */
function sheetFor(b: PageBox, size: TPaperSize): { width: number; height: number } {
  const [w, h] = paperSizes[size].map((inches) => inches * 72) as [number, number];
  return b.width > b.height ? { width: h, height: w } : { width: w, height: h };
}

/**
 * Crop pages to a box or to their content, or scale them onto a paper size: the pages asked get new boxes (and,
 * scaled, their content with them) from the resizePages chain; the others are kept as they are.
 */
export async function cropPdf(job: PdfJob, input: PreparedPdf, o: CropOptions): Promise<OutputFile> {
  const mode = cropModeOf(o);
  const boxes = await boxesFor(job, input, parsePageSet(o.pages, input.pages, 'pages'));
  const edits =
    mode === 'scale'
      ? boxes.map((b) => ({ page: b.page, fit: sheetFor(b, o.size!) }))
      : mode === 'box'
        ? boxCrops(boxes, o)
        : await contentCrops(job, input, boxes, o);
  const file = out(job, `${mode === 'scale' ? 'scaled' : 'cropped'}.pdf`);
  if (edits.length) {
    await job.engines.run('resizePages', (f) => f(input.path, file, { pages: edits }, job.ctx), job.signal);
  } else {
    await copyFile(input.path, file); // no page had anything drawn on it
  }
  return { path: file, name: mode === 'scale' ? 'scaled' : 'cropped', pages: input.pages };
}
