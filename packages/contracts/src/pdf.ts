import { z } from 'zod';
import { successEnvelope } from './common';
import type { TPaperSize } from './conversion';

/**
 * PDF operations (group `pdf`): multipart forms (text fields arrive as strings and are coerced) and the JSON answers.
 * The form schemas below list only the text fields; each route's documentation adds its file field(s).
 */

/** A file part of a multipart form, for the API reference. */
export const ZUploadFile = z.string().meta({ format: 'binary' });

/** Multipart booleans: true/false/1/0/yes/no/on/off. */
export const ZFormBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');

const pageSpec = (what: string) =>
  z
    .string()
    .max(10_000)
    .describe(
      `${what}: page numbers and ranges, e.g. "1-3,5,8-" ("8-" = to the last page); "all" or empty = every page`,
    );

const hexColor = z.string().regex(/^#([\da-fA-F]{3}|[\da-fA-F]{6})$/, 'must be a colour like #rgb or #rrggbb');

/** Passwords travel in forms; a line break cannot be passed to the PDF tools safely. */
const password = z
  .string()
  .max(127)
  .regex(/^[^\r\n]*$/, 'must not contain line breaks');

export const ZPdfPasswordField = z.object({
  password: password.optional().describe('Password of an encrypted input PDF (user or owner password)'),
});

export const ZMergePdfFields = z.object({
  order: z
    .string()
    .max(200)
    .optional()
    .describe('New order of the uploaded files, 1-based, e.g. "2,1,3" (default: as sent)'),
});
export type TMergePdfFields = z.infer<typeof ZMergePdfFields>;

export const ZSplitMode = z.enum(['ranges', 'every', 'each']);
export const ZSplitPdfFields = ZPdfPasswordField.extend({
  mode: ZSplitMode.default('ranges').describe(
    'ranges: one file per range of `ranges`; every: chunks of `every` pages; each: one file per page',
  ),
  ranges: pageSpec('For mode=ranges, each comma-separated item becomes one file').optional(),
  every: z.coerce.number().int().min(1).max(100_000).optional().describe('For mode=every: pages per file'),
});
export type TSplitPdfFields = z.infer<typeof ZSplitPdfFields>;

export const ZPagesFields = ZPdfPasswordField.extend({ pages: pageSpec('Pages').optional() });
export const ZExtractPagesFields = ZPdfPasswordField.extend({ pages: pageSpec('Pages to keep, in this order') });
export const ZDeletePagesFields = ZPdfPasswordField.extend({ pages: pageSpec('Pages to remove') });
export const ZReorderPdfFields = ZPdfPasswordField.extend({
  order: z.string().max(10_000).describe('Every page once in the new order, e.g. "3,1,2" or "2-5,1", or "reverse"'),
});

export const ZRotateAngle = z.enum(['90', '180', '270']);
export const ZRotatePdfFields = ZPdfPasswordField.extend({
  angle: z
    .union([z.literal(90), z.literal(180), z.literal(270), ZRotateAngle])
    .transform((v) => Number(v) as 90 | 180 | 270)
    .describe('Clockwise: 90, 180 or 270'),
  pages: pageSpec('Pages to rotate').optional(),
});

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
export const ZStampPosition = z.enum(stampPositions);

export const ZWatermarkPdfFields = ZPdfPasswordField.extend({
  text: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'Watermark text (or send an `image` file). Latin, Greek, Cyrillic, Armenian and Georgian scripts and common symbols; right-to-left, shaped (Indic, Thai) and CJK scripts are refused with 422',
    ),
  position: ZStampPosition.default('diagonal'),
  opacity: z.coerce.number().min(0).max(1).default(0.3),
  fontSize: z.coerce
    .number()
    .min(4)
    .max(500)
    .optional()
    .describe(
      'Points. Default: 48, or about 70 % of the diagonal for "diagonal", never larger than fits inside the page margins at the rotation given',
    ),
  font: z.enum(['helvetica', 'helvetica-bold', 'times', 'courier']).default('helvetica-bold'),
  color: hexColor.default('#808080'),
  rotation: z.coerce
    .number()
    .min(-360)
    .max(360)
    .optional()
    .describe('Degrees counter-clockwise (default 0, or the page diagonal for "diagonal")'),
  repeat: ZFormBoolean.default(false).describe('Tile the watermark over the whole page'),
  spacingX: z.coerce.number().min(0).max(2000).default(100).describe('Horizontal gap between tiles, points'),
  spacingY: z.coerce.number().min(0).max(2000).default(100).describe('Vertical gap between tiles, points'),
  scale: z.coerce
    .number()
    .min(0.01)
    .max(1)
    .default(0.25)
    .describe('Image watermark width as a fraction of the page width'),
  margin: z.coerce.number().min(0).max(500).default(36).describe('Distance from the edges for edge positions, points'),
  pages: pageSpec('Pages to watermark').optional(),
});
export type TWatermarkPdfFields = z.infer<typeof ZWatermarkPdfFields>;

export const ZPageNumbersFields = ZPdfPasswordField.extend({
  position: ZStampPosition.exclude(['diagonal']).default('bottom-center'),
  format: z
    .string()
    .min(1)
    .max(200)
    .default('Page {n} of {total}')
    .describe('{n}: page number, {total}: number of the last page; same scripts as watermark text'),
  startAt: z.coerce.number().int().min(0).max(1_000_000).default(1),
  fontSize: z.coerce.number().min(4).max(200).default(12),
  color: hexColor.default('#000000'),
  margin: z.coerce.number().min(0).max(500).default(24),
  pages: pageSpec('Pages to number').optional(),
});

export const ZProtectPdfFields = ZPdfPasswordField.extend({
  userPassword: password.optional().describe('Needed to open the file (empty: opens freely, restrictions still apply)'),
  ownerPassword: password.optional().describe('Needed to change restrictions (default: a random one nobody knows)'),
  permissions: z
    .string()
    .max(200)
    .optional()
    .describe('Comma list of what stays allowed: print, copy, modify, annotate; "all" or "none" (default: all)'),
  allowPrint: ZFormBoolean.optional(),
  allowCopy: ZFormBoolean.optional(),
  allowModify: ZFormBoolean.optional(),
  allowAnnotate: ZFormBoolean.optional(),
});
export const pdfPermissionNames = ['print', 'copy', 'modify', 'annotate'] as const;

export const ZUnlockPdfFields = z.object({ password: password.describe('The user or owner password') });

export const ZMetadataUpdateFields = ZPdfPasswordField.extend({
  title: z.string().max(2000).optional(),
  author: z.string().max(2000).optional(),
  subject: z.string().max(2000).optional(),
  keywords: z.string().max(2000).optional(),
  creator: z.string().max(2000).optional(),
  producer: z.string().max(2000).optional(),
  creationDate: z.iso.datetime({ offset: true }).optional().describe('ISO 8601'),
  modificationDate: z.iso.datetime({ offset: true }).optional().describe('ISO 8601 (default: now)'),
  clear: z
    .string()
    .max(200)
    .optional()
    .describe('Comma list of fields to remove: title, author, subject, keywords, creator, producer'),
});

export const ZExtractTextFields = ZPdfPasswordField.extend({
  pageRange: pageSpec('Pages to read').optional(),
  layout: ZFormBoolean.default(false).describe('Keep the physical layout (columns, spacing)'),
  words: ZFormBoolean.default(false).describe('Add word bounding boxes (points, origin top-left)'),
});

export const ZCompressionLevel = z.enum(['low', 'medium', 'high']);
export const ZCompressPdfFields = ZPdfPasswordField.extend({
  level: ZCompressionLevel.default('medium').describe(
    'low: lossless; medium: images to 150 dpi; high: images to 72 dpi',
  ),
});

export const ZToImagesFields = ZPdfPasswordField.extend({
  format: z
    .enum(['png', 'jpg', 'jpeg'])
    .default('png')
    .transform((f) => (f === 'jpeg' ? 'jpg' : f) as 'png' | 'jpg'),
  dpi: z.coerce.number().int().min(36).max(600).default(150),
  quality: z.coerce.number().int().min(10).max(100).default(85).describe('JPEG quality'),
  pages: pageSpec('Pages to render').optional(),
});

/** Lengths of the crop fields: points (1/72 in), millimetres or inches. */
export const ZLengthUnit = z.enum(['pt', 'mm', 'in']);

export const ZCropPdfFields = ZPdfPasswordField.extend({
  mode: z
    .enum(['box', 'content', 'scale'])
    .optional()
    .describe(
      'box: crop to `box`; content: crop to what is drawn on the page (found by rendering it) plus `margin`, a page with nothing drawn keeps its box; ' +
        'scale: scale each page, content and all, onto `size` paper, aspect ratio kept, centred, in the page’s own orientation. ' +
        'Default: box when `box` is given, scale when `size` is given, else content. Fields of another mode are ignored',
    ),
  box: z
    .string()
    .regex(
      /^\s*-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?){3}\s*$/,
      'must be "x,y,width,height" (four numbers, e.g. "36,36,523,770")',
    )
    .optional()
    .describe(
      'For mode=box: "x,y,width,height" in `unit`, x and y from the bottom-left corner of the page as it is shown (its visible box, rotation applied); it must lie within the page',
    ),
  unit: ZLengthUnit.default('pt').describe('Unit of `box` and `margin`: pt (1/72 in), mm or in'),
  margin: z.coerce
    .number()
    .min(0)
    .max(500)
    .default(0)
    .describe('For mode=content: space kept around the content, in `unit` (never past the page’s box)'),
  size: z
    // conversion.ts's paperSizes, named here: that module imports this one, so its values are not loaded yet.
    .enum(['A3', 'A4', 'A5', 'Letter', 'Legal', 'Tabloid'] as const satisfies readonly TPaperSize[])
    .optional()
    .describe('For mode=scale: the paper size (A3 297×420 mm, A4 210×297 mm, A5, Letter, Legal, Tabloid)'),
  pages: pageSpec('Pages to crop or scale (the others are kept as they are)').optional(),
});
export type TCropPdfFields = z.infer<typeof ZCropPdfFields>;

const marginSide = (side: string) =>
  z.coerce
    .number()
    .min(0)
    .max(1000)
    .optional()
    .describe(`White space added at the ${side} of each page as shown, in \`unit\` (default: \`margin\`)`);

export const ZAddMarginsFields = ZPdfPasswordField.extend({
  margin: z.coerce
    .number()
    .min(0)
    .max(1000)
    .default(36)
    .describe('White space added on every side of each page, in `unit` (a side given on its own wins)'),
  top: marginSide('top'),
  right: marginSide('right'),
  bottom: marginSide('bottom'),
  left: marginSide('left'),
  unit: ZLengthUnit.default('pt').describe('Unit of the margins: pt (1/72 in), mm or in'),
  pages: pageSpec('Pages to widen (the others are kept as they are)').optional(),
});
export type TAddMarginsFields = z.infer<typeof ZAddMarginsFields>;

export const ZRedactPdfFields = ZPdfPasswordField.extend({
  text: z
    .string()
    .max(1000)
    .optional()
    .describe('Text to redact wherever it appears: literal, or a regular expression with `regex=true`'),
  regex: ZFormBoolean.default(false).describe('true: `text` is a JavaScript regular expression'),
  caseSensitive: ZFormBoolean.default(false).describe('true: `text` matches only with the same upper and lower case'),
  wholeWords: ZFormBoolean.default(false).describe('true: `text` matches only whole words (not inside a longer word)'),
  areas: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Areas to redact, "page:x,y,width,height" separated by ";" (pt, from the bottom-left corner of the page as shown), e.g. "1:72,700,200,20;3:0,0,100,50"',
    ),
  pages: pageSpec('Pages searched for `text` (areas name their own page)').optional(),
  ocr: ZFormBoolean.default(false).describe(
    'true: pages without a text layer (scans) are read with OCR, so `text` is found on them too (their image is painted over)',
  ),
  languages: z
    .string()
    .trim()
    .max(200)
    // As the OCR group's `languages` (ocr.ts, which imports this module: not imported back).
    .regex(
      /^[A-Za-z][A-Za-z0-9_]{1,39}(\+[A-Za-z][A-Za-z0-9_]{1,39}){0,7}$/,
      'must be language codes joined by "+", e.g. "eng" or "eng+fra" (at most 8)',
    )
    .default('eng')
    .describe('OCR languages for `ocr`, tesseract codes joined by "+" (GET /ocr/languages lists them)'),
  color: hexColor.default('#000000').describe('Colour painted over the redacted areas'),
  label: z
    .string()
    .max(100)
    .optional()
    .describe('Text written over each redacted area, e.g. "REDACTED" (Latin-1 characters)'),
  scrub: ZFormBoolean.default(false).describe(
    'true: also remove the document information and XMP metadata, attachments, JavaScript, and the content of layers hidden by default',
  ),
});
export type TRedactPdfFields = z.infer<typeof ZRedactPdfFields>;

export const ZRemoveBlankPagesFields = ZPdfPasswordField.extend({
  threshold: z.coerce
    .number()
    .min(0)
    .max(0.5)
    .default(0.001)
    .describe(
      'A page without text is blank when at most this share of it is ink (0.001 = 0.1 %, about a 6 mm square on A4), measured on the page rendered in cells of 4 × 4 pt, each inked when its mean grey is darker than `whiteLevel` (so scanner specks average away)',
    ),
  whiteLevel: z.coerce
    .number()
    .int()
    .min(1)
    .max(255)
    .default(200)
    .describe(
      'Gray level (0 black, 255 white) from which a rendered pixel counts as paper, not ink: scanned paper is rarely pure white',
    ),
  pages: pageSpec('Pages that may be removed (the others are kept whatever they hold)').optional(),
});
export type TRemoveBlankPagesFields = z.infer<typeof ZRemoveBlankPagesFields>;

export const ZAutoRotateFields = ZPdfPasswordField.extend({
  confidence: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(2)
    .describe(
      "The orientation detector's confidence from which a page is turned (tesseract's scale: about 6 on a clear page of text, under 2 a guess); a page below it is left as it is",
    ),
  pages: pageSpec('Pages that may be turned (the others are left as they are)').optional(),
});

export const ZExtractImagesFields = ZPdfPasswordField.extend({ pages: pageSpec('Pages to read').optional() });
export const ZPasswordOnlyFields = ZPdfPasswordField;

// ------------------------------------------------------------------ answers

/** A file answer as JSON (`Accept: application/json`). */
export const ZFileResult = z
  .object({
    fileName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    pages: z.number().int().optional(),
    base64: z.string(),
  })
  .meta({ id: 'FileResult' });
export const ZFileResultResponse = successEnvelope(ZFileResult);
export type TFileResult = z.infer<typeof ZFileResult>;

export const ZPdfMetadata = z
  .object({
    title: z.string().nullable(),
    author: z.string().nullable(),
    subject: z.string().nullable(),
    keywords: z.string().nullable(),
    creator: z.string().nullable(),
    producer: z.string().nullable(),
    creationDate: z.string().nullable(),
    modificationDate: z.string().nullable(),
    pdfVersion: z.string().nullable(),
    pages: z.number().int(),
    encrypted: z.boolean(),
  })
  .meta({ id: 'PdfMetadata' });
export const ZPdfMetadataResponse = successEnvelope(ZPdfMetadata);

export const ZSizeBreakdown = z
  .object({
    total: z.number().int(),
    images: z.number().int(),
    fonts: z.number().int(),
    content: z.number().int(),
    other: z.number().int(),
    objects: z.number().int(),
    imageCount: z.number().int(),
    fontCount: z.number().int(),
  })
  .meta({ id: 'PdfSizeBreakdown' });

export const ZPdfAnalysis = z
  .object({
    pages: z.number().int(),
    pdfVersion: z.string().nullable(),
    encrypted: z.boolean(),
    linearized: z.boolean(),
    tagged: z.boolean(),
    form: z.enum(['none', 'AcroForm', 'XFA']),
    javascript: z.boolean(),
    scanned: z.boolean().describe('Pages are images without a text layer'),
    textPages: z.array(z.number().int()),
    pageSizes: z.array(
      z.object({
        page: z.number().int(),
        width: z.number(),
        height: z.number(),
        rotate: z.number().int(),
        label: z.string().nullable(),
      }),
    ),
    fonts: z.array(
      z.object({
        name: z.string(),
        type: z.string(),
        encoding: z.string(),
        embedded: z.boolean(),
        subset: z.boolean(),
        unicode: z.boolean(),
      }),
    ),
    images: z.array(
      z.object({
        page: z.number().int(),
        width: z.number().int(),
        height: z.number().int(),
        colorSpace: z.string(),
        bitsPerComponent: z.number().int(),
        encoding: z.string(),
        xPpi: z.number(),
        yPpi: z.number(),
        bytes: z.number().int(),
      }),
    ),
    fileSize: z.number().int(),
    sizeBreakdown: ZSizeBreakdown.nullable(),
    missing: z
      .array(z.object({ part: z.enum(['sizeBreakdown']), code: z.string(), message: z.string() }))
      .describe(
        'Parts of the analysis that could not be made for this file, and why (their fields are null); the rest stands',
      ),
  })
  .meta({ id: 'PdfAnalysis' });
export const ZPdfAnalysisResponse = successEnvelope(ZPdfAnalysis);

export const ZTextWord = z.object({
  text: z.string(),
  xMin: z.number(),
  yMin: z.number(),
  xMax: z.number(),
  yMax: z.number(),
});
export const ZExtractTextResult = z
  .object({
    pages: z.array(
      z.object({
        page: z.number().int(),
        text: z.string(),
        width: z.number().optional(),
        height: z.number().optional(),
        words: z.array(ZTextWord).optional(),
      }),
    ),
    text: z.string(),
    pageCount: z.number().int(),
  })
  .meta({ id: 'PdfText' });
export const ZExtractTextResponse = successEnvelope(ZExtractTextResult);

export const ZCompressionAnalysis = z
  .object({
    originalSize: z.number().int(),
    breakdown: ZSizeBreakdown,
    images: z.object({ count: z.number().int(), bytes: z.number().int(), maxPpi: z.number().int() }),
    fonts: z.object({ count: z.number().int(), embedded: z.number().int(), bytes: z.number().int() }),
    estimates: z.array(
      z.object({
        level: ZCompressionLevel,
        estimatedSize: z.number().int(),
        estimatedReduction: z.number(),
        method: z.string(),
      }),
    ),
    recommendation: ZCompressionLevel,
    reason: z.string(),
  })
  .meta({ id: 'PdfCompressionAnalysis' });
export const ZCompressionAnalysisResponse = successEnvelope(ZCompressionAnalysis);

/** The fields of each PDF endpoint (the catalogue's entries for /pdf/…). */
export const pdfEndpointFields = {
  '/pdf/merge': ZMergePdfFields,
  '/pdf/split': ZSplitPdfFields,
  '/pdf/extract-pages': ZExtractPagesFields,
  '/pdf/delete-pages': ZDeletePagesFields,
  '/pdf/rotate': ZRotatePdfFields,
  '/pdf/reorder': ZReorderPdfFields,
  '/pdf/watermark': ZWatermarkPdfFields,
  '/pdf/page-numbers': ZPageNumbersFields,
  '/pdf/protect': ZProtectPdfFields,
  '/pdf/unlock': ZUnlockPdfFields,
  '/pdf/metadata': ZPasswordOnlyFields,
  '/pdf/metadata/update': ZMetadataUpdateFields,
  '/pdf/analyze': ZPasswordOnlyFields,
  '/pdf/extract-text': ZExtractTextFields,
  '/pdf/compress': ZCompressPdfFields,
  '/pdf/compression-analysis': ZPasswordOnlyFields,
  '/pdf/to-images': ZToImagesFields,
  '/pdf/extract-images': ZExtractImagesFields,
  '/pdf/flatten': ZPasswordOnlyFields,
  '/pdf/repair': ZPasswordOnlyFields,
  '/pdf/to-pdfa': ZPasswordOnlyFields,
  '/pdf/crop': ZCropPdfFields,
  '/pdf/remove-blank-pages': ZRemoveBlankPagesFields,
  '/pdf/auto-rotate': ZAutoRotateFields,
  '/pdf/add-margins': ZAddMarginsFields,
  '/pdf/redact': ZRedactPdfFields,
} as const;
