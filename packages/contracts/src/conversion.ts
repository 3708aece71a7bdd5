import { z } from 'zod';
import { successEnvelope } from './common';
import { ZFormBoolean } from './pdf';

/**
 * Conversion to PDF (group `conversion`, batch in group `batch`): multipart forms whose text fields arrive as
 * strings, and the JSON answers. Each route's documentation adds its file field(s).
 */

const pageRange = z
  .string()
  .max(10_000)
  .optional()
  .describe('Keep only these pages of the result, e.g. "1-3,5" (default: every page)');

/** Options every conversion takes. */
export const ZConvertCommonFields = z.object({
  pageRange,
  pdfa: ZFormBoolean.default(false).describe('Answer a PDF/A-2b document (archival)'),
});
export type TConvertCommonFields = z.infer<typeof ZConvertCommonFields>;

export const ZOfficeFields = ZConvertCommonFields.extend({
  password: z.string().max(1024).optional().describe('Password of a protected office document'),
});

export const ZSpreadsheetFields = ZOfficeFields.extend({
  landscape: ZFormBoolean.default(false).describe('Print the sheets in landscape'),
  fitToPage: ZFormBoolean.default(false).describe('Scale each sheet to one page wide'),
});

export const paperSizes = {
  // Exact inches (Chromium rounds to its device units: 8.27 in would come out 1 pt narrower than A4).
  A3: [297 / 25.4, 420 / 25.4],
  A4: [210 / 25.4, 297 / 25.4],
  A5: [148 / 25.4, 210 / 25.4],
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
} as const;
export type TPaperSize = keyof typeof paperSizes;

const inches = (what: string) =>
  z.coerce.number().min(0).max(10).optional().describe(`${what}, in inches (default: the \`margin\` value)`);

/** How Chromium prints a page (HTML, URL, Markdown, text, EPUB). */
export const ZPrintFields = ZConvertCommonFields.extend({
  paperSize: z
    .enum(Object.keys(paperSizes) as [TPaperSize, ...TPaperSize[]])
    .default('A4')
    .describe('Paper format (ignored when paperWidth and paperHeight are given)'),
  paperWidth: z.coerce.number().min(1).max(200).optional().describe('Custom paper width in inches'),
  paperHeight: z.coerce.number().min(1).max(200).optional().describe('Custom paper height in inches'),
  margin: z.coerce.number().min(0).max(10).default(0.4).describe('All four margins, in inches'),
  marginTop: inches('Top margin'),
  marginRight: inches('Right margin'),
  marginBottom: inches('Bottom margin'),
  marginLeft: inches('Left margin'),
  landscape: ZFormBoolean.default(false),
  printBackground: ZFormBoolean.default(true).describe('Print background colours and images'),
  scale: z.coerce.number().min(0.1).max(2).default(1).describe('Rendering scale, 0.1 to 2'),
});
export type TPrintFields = z.infer<typeof ZPrintFields>;

/** Scripts are a plan feature: absent, they run when the key's plan includes them. */
const javascriptField = ZFormBoolean.optional().describe(
  "Run the page's JavaScript. Absent: when the key's plan includes it (not on Free). true on a plan without it: 403 ENDPOINT_NOT_ALLOWED",
);

/** What a page must pass before it is captured (HTML and URL routes, to PDF and to images). */
const pageChecks = {
  waitForExpression: z
    .string()
    .max(2000)
    .optional()
    .describe(
      "A JavaScript expression the capture waits for until it is true (e.g. `window.ready === true`), within the render deadline; needs the page's JavaScript",
    ),
  failOnConsoleExceptions: ZFormBoolean.default(false).describe(
    'Fail with 422 INVALID_DOCUMENT when the page throws an uncaught exception',
  ),
};

export const ZHtmlFields = ZPrintFields.extend({
  html: z.string().max(1_048_576).optional().describe('The HTML itself, instead of a `file`'),
  javascript: javascriptField,
  ...pageChecks,
});

export const ZUrlFields = ZPrintFields.extend({
  javascript: javascriptField,
  ...pageChecks,
  url: z.string().min(1).max(8192).describe('The http(s) page to print; private and loopback addresses are refused'),
});

/** How a page is captured as an image (html-to-image, url-to-image). */
export const ZScreenshotFields = z.object({
  format: z.enum(['png', 'jpeg', 'webp']).default('png').describe('Image format'),
  width: z.coerce
    .number()
    .int()
    .min(16)
    .max(4096)
    .default(1280)
    .describe('Screen width the page is laid out on, pixels'),
  height: z.coerce
    .number()
    .int()
    .min(16)
    .max(16384)
    .default(1024)
    .describe('Screen height, pixels: the image height with clip, its least height without'),
  clip: ZFormBoolean.default(false).describe(
    'true: the screen only (width × height); false: the whole page, as tall as its content (up to 16384 px)',
  ),
  quality: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe('jpeg and webp compression quality, 0-100 (default 90); png is lossless and takes none'),
  omitBackground: ZFormBoolean.default(false).describe(
    'Transparent where the page paints no background (png and webp only)',
  ),
  emulatedMediaType: z
    .enum(['screen', 'print'])
    .default('screen')
    .describe('The CSS media type the page is laid out with'),
  waitDelay: z.coerce
    .number()
    .int()
    .min(0)
    .max(30_000)
    .default(0)
    .describe('Milliseconds to wait once the page has loaded (for late scripts), within the render deadline'),
});
export type TScreenshotFields = z.infer<typeof ZScreenshotFields>;

export const ZHtmlImageFields = ZScreenshotFields.extend({
  html: z.string().max(1_048_576).optional().describe('The HTML itself, instead of a file'),
  javascript: javascriptField,
  ...pageChecks,
});

export const ZUrlImageFields = ZScreenshotFields.extend({
  javascript: javascriptField,
  ...pageChecks,
  url: z.string().min(1).max(8192).describe('The http(s) page to capture; private and loopback addresses are refused'),
});

export const ZImageToPdfFields = ZConvertCommonFields.extend({
  pageSize: z.enum(['A4', 'letter', 'fit']).default('A4').describe('fit: each page the size of its image'),
  orientation: z
    .enum(['portrait', 'landscape', 'auto'])
    .default('auto')
    .describe('auto: landscape pages for wide images'),
  margin: z.coerce.number().min(0).max(500).default(0).describe('Margin around each image, points (1/72 in)'),
});

export const ZBatchFields = ZConvertCommonFields.extend({});

export const ZConversionFormat = z.object({
  format: z.string().describe('File extension, e.g. docx'),
  mimeType: z.string(),
  category: z.string(),
  route: z.string().describe('The conversion route for it'),
  engine: z.string().describe('The engine operation that converts it'),
  available: z.boolean().describe('False when the server has no engine configured for it'),
});
export const ZConversionFormatsResponse = successEnvelope(
  z.object({
    formats: z.array(ZConversionFormat),
    routes: z.array(z.object({ route: z.string(), formats: z.array(z.string()) })),
  }),
);

export const ZBatchManifestEntry = z.object({
  file: z.string().describe('The uploaded file name'),
  ok: z.boolean(),
  output: z.string().optional().describe('Name of its PDF in the zip'),
  pages: z.number().int().optional(),
  format: z.string().nullable().optional(),
  code: z.string().optional().describe('Error code when it failed'),
  error: z.string().optional(),
});
export type TBatchManifestEntry = z.infer<typeof ZBatchManifestEntry>;
