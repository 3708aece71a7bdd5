import { z } from 'zod';
import { successEnvelope } from './common';
import { ZOcrLanguages } from './ocr';

/**
 * Structured extraction (group `pdf`): a PDF, or any document the converters take, read back as Markdown, as JSON
 * blocks, or as its tables. Multipart forms: fields arrive as strings and are coerced.
 */

const extractionFields = {
  pages: z.string().max(10_000).optional().describe('Pages to read, e.g. "1-3,5,8-"; empty = every page'),
  languages: ZOcrLanguages.describe(
    'OCR languages for pages without a text layer (scans), tesseract codes joined by "+" (default eng)',
  ),
  password: z
    .string()
    .max(127)
    .regex(/^[^\r\n]*$/, 'must not contain line breaks')
    .optional()
    .describe('Password of an encrypted input PDF'),
};

export const ZToMarkdownFields = z.object(extractionFields);
export type TToMarkdownFields = z.infer<typeof ZToMarkdownFields>;

export const ZToJsonFields = z.object(extractionFields);
export type TToJsonFields = z.infer<typeof ZToJsonFields>;

export const ZTablesFields = z.object({
  ...extractionFields,
  format: z
    .enum(['csv', 'xlsx'])
    .default('csv')
    .describe(
      'csv: one CSV file for one table, a ZIP of one CSV per table for several; xlsx: one workbook, a sheet per table',
    ),
});
export type TTablesFields = z.infer<typeof ZTablesFields>;

const ZBox = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const ZExtractedBlock = z.object({
  type: z.enum(['heading', 'paragraph', 'list-item', 'table', 'image']),
  text: z.string(),
  page: z.number().int(),
  box: ZBox.describe('In points from the top-left corner of the page'),
  font: z.string().optional(),
  size: z.number().optional().describe('Font size in points (OCR pages: the line height)'),
  bold: z.boolean().optional(),
  level: z.number().int().optional().describe('Heading: 1-6. List item: nesting depth from 0'),
  marker: z.string().optional().describe('List item: its marker as printed'),
  ordered: z.boolean().optional(),
  id: z.string().optional().describe('Image: p<page>-<n>'),
  rows: z
    .array(
      z.object({
        box: ZBox,
        cells: z.array(z.object({ text: z.string(), box: ZBox })),
      }),
    )
    .optional()
    .describe('Table: rows of cells, each with its box'),
});

export const ZToJsonResult = z.object({
  pageCount: z.number().int().describe('Pages of the document read (after conversion when it was not a PDF)'),
  converted: z.boolean().describe('The upload was not a PDF and was converted first'),
  pages: z.array(
    z.object({
      page: z.number().int(),
      width: z.number(),
      height: z.number(),
      ocr: z.boolean().describe('The page had no text layer and was read by OCR'),
      blocks: z.array(ZExtractedBlock),
    }),
  ),
});
export type TToJsonResult = z.infer<typeof ZToJsonResult>;
export const ZToJsonResponse = successEnvelope(ZToJsonResult);

export const extractEndpointFields = {
  '/pdf/to-markdown': ZToMarkdownFields,
  '/pdf/to-json': ZToJsonFields,
  '/pdf/tables': ZTablesFields,
} as const;
