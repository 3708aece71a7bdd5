import { z } from 'zod';
import { successEnvelope } from './common';
import { ZFormBoolean } from './pdf';

/**
 * OCR (group `ocr`): multipart forms (text fields arrive as strings and are coerced) and the JSON answers. The input
 * is one `file`: an image (png, jpg, tiff with all its pages, bmp, webp) or a PDF, told apart by its bytes.
 */

/** "eng+fra" → ["eng", "fra"]; whether each is installed is checked by the server (GET /ocr/languages). */
export const ZOcrLanguages = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{1,39}(\+[A-Za-z][A-Za-z0-9_]{1,39}){0,7}$/,
    'must be language codes joined by "+", e.g. "eng" or "eng+fra" (at most 8)',
  )
  .default('eng')
  .transform((s) => [...new Set(s.split('+'))])
  .describe(
    'Languages of the text, tesseract codes joined by "+", e.g. "eng+fra" (default eng); GET /ocr/languages lists them',
  );

const pageRange = z
  .string()
  .max(10_000)
  .optional()
  .describe('PDF only: pages to read, e.g. "1-3,5,8-"; empty = every page');

const dpi = z.coerce
  .number()
  .int()
  .min(70)
  .max(600)
  .optional()
  .describe(
    'PDF: resolution pages are rendered at (default 300). Image: its resolution when the file states none (default 300)',
  );

const psm = z.coerce
  .number()
  .int()
  .min(0)
  .max(13)
  .refine(
    (n) => n !== 0 && n !== 2,
    'must be 1 or 3-13 (0 is orientation detection only, 2 is not implemented by tesseract)',
  )
  .optional()
  .describe(
    'Tesseract page segmentation mode: 3 automatic (default), 4 one column, 6 one block, 7 one line, 8 one word, 11 sparse text…',
  );

const recognition = {
  languages: ZOcrLanguages,
  psm,
  dpi,
  pageRange,
  password: z
    .string()
    .max(127)
    .regex(/^[^\r\n]*$/, 'must not contain line breaks')
    .optional()
    .describe('Password of an encrypted input PDF'),
};

export const ZOcrExtractFields = z.object({
  ...recognition,
  preprocessImage: ZFormBoolean.default(false).describe(
    'Clean the image before recognition: grey, contrast stretched, sharpened',
  ),
  includeWordDetails: ZFormBoolean.default(false).describe(
    'Each line with its words, boxes and confidence (lines are always given)',
  ),
  whitelist: z
    .string()
    .min(1)
    .max(500)
    .regex(/^[^\r\n\t]*$/, 'must not contain line breaks or tabs')
    .optional()
    .describe('Only these characters are recognised, e.g. "0123456789-" for numbers'),
});
export type TOcrExtractFields = z.infer<typeof ZOcrExtractFields>;

export const ZOcrEnhancedFields = ZOcrExtractFields.omit({ preprocessImage: true });

export const ZOcrQualityFields = z.object({ pageRange, password: recognition.password });

/** OCRmyPDF's modes for pages that already have text. */
export const ocrTextModes = ['skip-text', 'redo-ocr', 'force'] as const;

export const ZOcrSearchablePdfFields = z.object({
  ...recognition,
  mode: z
    .enum(ocrTextModes)
    .default('skip-text')
    .describe(
      'PDF: skip-text leaves pages that already have text exactly as they are; redo-ocr replaces an earlier invisible OCR layer (pages with visible text are kept); force rasterises every page and OCRs it (its old text goes, the page becomes its image with the new text)',
    ),
  force: ZFormBoolean.default(false).describe('The same as mode=force (kept for older clients)'),
  deskew: ZFormBoolean.default(false).describe(
    'Straighten skewed scans: a page found more than 0.2° off is replaced by its straightened image under the text',
  ),
  rotatePages: ZFormBoolean.default(false).describe(
    "Turn pages upright (tesseract's orientation detection): the page's rotation is set, its content kept",
  ),
  clean: ZFormBoolean.default(false).describe(
    'Remove background noise before recognition; the output keeps the original image',
  ),
  sidecar: ZFormBoolean.default(false).describe(
    'Answer a ZIP of the PDF and a .txt of the recognised text (pages separated by form feeds)',
  ),
  outputType: z
    .enum(['pdf', 'pdfa'])
    .default('pdf')
    .describe('pdfa: an archival PDF/A-2b (converted after the text layer is added)'),
  optimize: z.coerce
    .number()
    .int()
    .min(0)
    .max(3)
    .default(0)
    .describe('0: as made; 1: lossless (streams recompressed); 2: images to 150 dpi; 3: images to 72 dpi'),
});

const box = { x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() };
export const ZOcrWord = z.object({ text: z.string(), confidence: z.number(), ...box });
export const ZOcrLine = z.object({
  text: z.string(),
  confidence: z.number(),
  ...box,
  words: z.array(ZOcrWord).describe('Empty unless includeWordDetails'),
});
export const ZOcrPage = z.object({
  page: z.number().int(),
  text: z.string(),
  confidence: z.number().describe('Mean word confidence 0-100'),
  width: z.number().int().describe('Pixels of the recognised image (boxes are in these pixels, origin top-left)'),
  height: z.number().int(),
  dpi: z.number().int(),
  words: z.number().int().describe('Words recognised on the page'),
  lines: z.array(ZOcrLine),
});
export const ZOcrResult = z.object({
  text: z.string().describe('All pages, separated by a blank line'),
  confidence: z.number().describe('Mean word confidence 0-100 over all pages'),
  languages: z.array(z.string()),
  pageCount: z.number().int(),
  pages: z.array(ZOcrPage),
});
export const ZOcrExtractResponse = successEnvelope(ZOcrResult);

export const ZOcrPass = z.enum(['original', 'cleaned', 'binarized', 'upscaled']);
export const ZOcrEnhancedPage = ZOcrPage.extend({
  pass: ZOcrPass.describe('The clean-up whose recognition was kept'),
  skewAngle: z.number().describe('Skew found and straightened, degrees (positive: lines rose to the right)'),
  passes: z.array(z.object({ pass: ZOcrPass, confidence: z.number(), words: z.number().int() })),
});
export const ZOcrEnhancedResponse = successEnvelope(ZOcrResult.extend({ pages: z.array(ZOcrEnhancedPage) }));

export const ZOcrQualityPage = z.object({
  page: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  dpi: z.number().int().nullable().describe('Resolution of the scan; null when unknown'),
  hasText: z.boolean().describe('PDF page that already has a text layer'),
  contrast: z.number().describe('RMS contrast 0-1'),
  dynamicRange: z.number().describe('Spread of greys between the 2nd and 98th percentile, 0-1'),
  sharpness: z.number().describe('Laplacian variance at 150 dpi (below 100: blurred)'),
  blurry: z.boolean(),
  noise: z.number().describe('Mean grey change a 3×3 median filter makes, 0-1 (above 0.02: noisy)'),
  skewAngle: z.number().describe('Degrees, positive: lines rise to the right'),
  score: z.number().int().min(0).max(100),
  advice: z.array(z.string()),
});
export const ZOcrQualityResponse = successEnvelope(
  z.object({
    score: z.number().int().min(0).max(100).describe('Estimated OCR suitability, 0-100'),
    suitability: z.enum(['excellent', 'good', 'fair', 'poor']),
    pageCount: z.number().int(),
    pages: z.array(ZOcrQualityPage),
    advice: z.array(z.string()),
  }),
);

export const ZOcrLanguagesResponse = successEnvelope(
  z.object({
    languages: z.array(z.object({ code: z.string(), name: z.string() })),
    default: z.string(),
  }),
);
