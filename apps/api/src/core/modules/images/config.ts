import { z } from 'zod';

export const ZImagesConfig = z.object({
  /** Pixels per image (per TIFF page), checked from the header before decoding: decompression bombs stop here. */
  MAX_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
  /** Pages per PDF (every TIFF page counts). */
  MAX_PAGES: z.coerce.number().int().min(1).default(500),
  /** Largest PDF written (the file grows on disk as pages are added; past this the conversion stops). */
  MAX_OUTPUT_MB: z.coerce.number().min(1).default(512),
  /** Largest raster an SVG is rendered to (SVGs are drawn at twice their own size, less if this caps it). */
  SVG_MAX_RENDER_PIXELS: z.coerce.number().int().min(1).default(25_000_000),
  /** Largest SVG text (after un-gzipping an .svgz). */
  SVG_MAX_MB: z.coerce.number().min(0.1).default(20),
});
export type ImagesConfig = z.infer<typeof ZImagesConfig>;
