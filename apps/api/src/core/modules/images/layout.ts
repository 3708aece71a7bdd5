import type { ImagesToPdfOptions } from '../../operations/convert/interfaces';

/** Page sizes in PDF points (1/72 in), portrait. */
export const PAGE_SIZES = { A4: { width: 595.28, height: 841.89 }, letter: { width: 612, height: 792 } } as const;

/** Acrobat's largest page side (200 in); larger 'fit' pages are scaled down to it. */
export const MAX_PAGE_SIDE = 14_400;

/** When an image does not say how dense it is: the CSS pixel (img2pdf's default too). */
export const DEFAULT_DPI = 96;

export interface Placement {
  pageWidth: number;
  pageHeight: number;
  /** The image's displayed box on the page (bottom-left origin). */
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where an image goes. `width`/`height` are its displayed size in points at its own resolution (after EXIF
 * orientation). A4 and letter: the image is shrunk to fit inside the margins, keeping its aspect ratio, and centred;
 * it is never enlarged past its own size, so a small logo stays crisp rather than being blown up to the page.
 * 'fit': the page is the image plus the margins.
 */
export function placeImage(width: number, height: number, opts: ImagesToPdfOptions): Placement {
  const m = opts.margin;
  if (opts.pageSize === 'fit') {
    // Keep the page within the largest size viewers accept, shrinking the image instead.
    const k = Math.min(1, (MAX_PAGE_SIDE - 2 * m) / width, (MAX_PAGE_SIDE - 2 * m) / height);
    const w = width * k;
    const h = height * k;
    return { pageWidth: w + 2 * m, pageHeight: h + 2 * m, x: m, y: m, width: w, height: h };
  }
  const base = PAGE_SIZES[opts.pageSize];
  const landscape = opts.orientation === 'landscape' || (opts.orientation === 'auto' && width > height);
  const pageWidth = landscape ? base.height : base.width;
  const pageHeight = landscape ? base.width : base.height;
  const boxW = pageWidth - 2 * m;
  const boxH = pageHeight - 2 * m;
  const k = Math.min(1, boxW / width, boxH / height);
  const w = width * k;
  const h = height * k;
  return { pageWidth, pageHeight, x: (pageWidth - w) / 2, y: (pageHeight - h) / 2, width: w, height: h };
}

/** The margin must leave room for the image on the chosen page (checked once, before any work). */
export function marginProblem(opts: ImagesToPdfOptions): string | null {
  const m = opts.margin;
  if (!Number.isFinite(m) || m < 0) return 'must be a number of points, 0 or more';
  if (opts.pageSize === 'fit') return m > 1440 ? 'must be at most 1440 points (20 in) with pageSize fit' : null;
  const base = PAGE_SIZES[opts.pageSize];
  const limit = Math.floor(Math.min(base.width, base.height) / 2) - 1;
  return m >= limit ? `must be less than ${limit} points on ${opts.pageSize} pages` : null;
}

/**
 * The image-space matrix for a stored (not rotated) image shown with EXIF orientation `o` in the box: PDF maps the
 * unit square onto the page with `cm`, so a JPEG embedded as it is can be turned and mirrored without decoding it.
 * Image space: u right, v up, the first stored row at v = 1.
 */
export function orientationMatrix(
  o: number,
  box: { x: number; y: number; width: number; height: number },
): [number, number, number, number, number, number] {
  // Stored (s right, t down, 0..1) to displayed (X right, Y down, 0..1), per EXIF orientation.
  const toDisplay = (s: number, t: number): [number, number] => {
    switch (o) {
      case 2:
        return [1 - s, t];
      case 3:
        return [1 - s, 1 - t];
      case 4:
        return [s, 1 - t];
      case 5:
        return [t, s];
      case 6:
        return [1 - t, s];
      case 7:
        return [1 - t, 1 - s];
      case 8:
        return [t, 1 - s];
      default:
        return [s, t];
    }
  };
  const page = (u: number, v: number): [number, number] => {
    const [X, Y] = toDisplay(u, 1 - v);
    return [box.x + X * box.width, box.y + (1 - Y) * box.height];
  };
  const [e, f] = page(0, 0);
  const [ux, uy] = page(1, 0);
  const [vx, vy] = page(0, 1);
  return [ux - e, uy - f, vx - e, vy - f, e, f];
}

/** EXIF orientations 5-8 swap width and height. */
export const swapsAxes = (o: number) => o >= 5 && o <= 8;
