import { ZFileResultResponse, ZToJsonResponse } from '@docflow/contracts';
import { extractionSource } from '../../core/operations/extract/source';
import { pdfToJson } from '../../core/operations/extract/to-json';
import { pdfToMarkdown } from '../../core/operations/extract/to-markdown';
import { extractTables } from '../../core/operations/extract/tables-csv';
import { baseName, outputName } from '../../lib/send-result';
import { dataOutcome, fileOutcome, zipOutcome } from '../../lib/outcome';
import { defineEndpoint, type EndpointContext, type FileDoc, type ProcessingEndpoint } from '../processing-endpoint';

/**
 * Structured extraction: a document read back as Markdown, JSON blocks or CSV tables. Any format auto-to-pdf takes
 * is converted first; pages without a text layer are OCR-ed.
 */

const files: FileDoc = {
  description: 'A PDF, or any document the converters take (Word, Excel, PowerPoint, OpenDocument, HTML, Markdown…)',
};

const HOW =
  'Headings come from font size and weight (the body size is the size most text is set in; larger, or bold and short, lines are headings, their level the rank of their size); ' +
  'multi-column pages are read column by column; lists (•, -, –, ◦, *, 1., 1), a)) nest by indent; rows whose words fall in the same column positions with wide gaps are tables. ' +
  'Pages with no text layer are read by OCR (`languages`). A non-PDF upload is converted to PDF first.';

type ExtractionFields = { pages?: string; languages: string[]; password?: string };

/** The upload as a PDF (converted when it is not one), opened and counted like every PDF input. */
async function sourceOf<F extends ExtractionFields>(ctx: EndpointContext<F>) {
  const upload = ctx.files[0]!;
  return extractionSource(ctx.job, upload, (f) => ctx.prepare({ ...upload, ...f }, { password: ctx.fields.password }));
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const readOptions = (f: ExtractionFields) => ({ pages: f.pages, languages: f.languages });

export const extractEndpoints: readonly ProcessingEndpoint[] = [
  defineEndpoint('/pdf/to-markdown', {
    files,
    description: `${HOW} Tables become Markdown tables, images references (\`![image p2-1](image-p2-1)\`), and each page starts with \`<!-- page N -->\`. Answers X-Ocr-Pages.`,
    response: ZFileResultResponse.describe(
      'The Markdown file itself (text/markdown); with Accept: application/json, this JSON',
    ),
    async run(ctx) {
      const { pdf } = await sourceOf(ctx);
      const md = await pdfToMarkdown(ctx.job, pdf, readOptions(ctx.fields));
      return fileOutcome(
        {
          path: md.path,
          fileName: `${baseName(ctx.files[0]!.filename)}.md`,
          mimeType: 'text/markdown',
          pages: pdf.pages,
        },
        { 'X-Ocr-Pages': md.ocrPages.join(',') || 'none' },
      );
    },
  }),

  defineEndpoint('/pdf/to-json', {
    files,
    description: `${HOW} Each block has its type, text, page, box (points from the page's top-left), font and size; tables have rows of cells with their boxes.`,
    response: ZToJsonResponse,
    async run(ctx) {
      const { pdf, converted } = await sourceOf(ctx);
      const r = await pdfToJson(ctx.job, pdf, readOptions(ctx.fields));
      return dataOutcome({ ...r, converted });
    },
  }),

  defineEndpoint('/pdf/tables', {
    files,
    description:
      'Every table of the pages asked (found as /pdf/to-markdown finds them). format=csv: one table answers its CSV file, several a ZIP of one CSV per table (table-p<page>-<n>.csv); format=xlsx: one workbook, a sheet per table (p<page>-<n>), numbers as numbers. 422 when there is none.',
    response: ZFileResultResponse.describe(
      'The CSV file (text/csv), a ZIP of them, or the XLSX workbook; with Accept: application/json, this JSON',
    ),
    async run(ctx) {
      const { pdf } = await sourceOf(ctx);
      const tables = await extractTables(ctx.job, pdf, { ...readOptions(ctx.fields), format: ctx.fields.format });
      const from = ctx.files[0]!.filename;
      if (tables.length === 1) {
        const name = `${baseName(from)}-${tables[0]!.name}`;
        return fileOutcome({
          path: tables[0]!.path,
          fileName: name,
          mimeType: name.endsWith('.xlsx') ? XLSX : 'text/csv',
          pages: pdf.pages,
        });
      }
      const entries = tables.map((t) => ({ path: t.path, name: `${baseName(from)}-${t.name}` }));
      return zipOutcome(entries, outputName(from, 'tables', 'zip'), { pages: pdf.pages });
    },
  }),
];
