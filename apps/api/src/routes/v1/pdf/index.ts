import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ZCompressionAnalysisResponse,
  ZExtractImagesFields,
  ZExtractTextFields,
  ZExtractTextResponse,
  ZFileResultResponse,
  ZMergePdfFields,
  ZPasswordOnlyFields,
  ZPdfAnalysisResponse,
  ZPdfMetadataResponse,
  ZProtectPdfFields,
  ZSplitPdfFields,
  ZToImagesFields,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { mimeOf, outputName, baseName, sendData, sendFile, sendZip } from '../../../lib/send-result';
import type { UploadedFile } from '../../../lib/uploads';
import * as ops from '../../../core/pdf/operations';
import type { z } from 'zod';
import { registerProcessingRoute, type FileSpec, type ProcessingRouteSpec } from '../../../plugins/processing-routes';
import { pdfSteps, protectOptions, type PdfStep, type PdfStepPath } from './steps';

const one: FileSpec = { field: 'file', min: 1, max: 1, description: 'The PDF document' };
const fileAnswer = ZFileResultResponse.describe(
  'The resulting file itself (application/pdf, image/*, or application/zip for several files) with Content-Disposition; with Accept: application/json, this JSON',
);

/** Send a single PDF produced from `input`. */
function sendPdf(
  request: FastifyRequest,
  reply: FastifyReply,
  from: UploadedFile,
  file: ops.OutputFile,
  headers?: Record<string, string | number>,
) {
  return sendFile(
    request,
    reply,
    {
      path: file.path,
      fileName: outputName(from.filename, file.name, 'pdf'),
      mimeType: 'application/pdf',
      pages: file.pages,
    },
    headers,
  );
}

/** One file as itself, several as a zip named after the input. */
function sendMany(
  request: FastifyRequest,
  reply: FastifyReply,
  from: UploadedFile,
  files: ops.OutputFile[],
  suffix: string,
  ext: string,
  pages?: number,
) {
  if (files.length === 1) {
    const f = files[0]!;
    return sendFile(request, reply, {
      path: f.path,
      fileName: outputName(from.filename, f.name, ext),
      mimeType: mimeOf(`x.${ext}`),
      pages: f.pages,
    });
  }
  const entries = files.map((f) => ({
    path: f.path,
    name: /\.\w+$/.test(f.name) ? `${baseName(from.filename)}-${f.name}` : outputName(from.filename, f.name, ext),
  }));
  return sendZip(request, reply, entries, outputName(from.filename, suffix, 'zip'), { pages });
}

type OneInSpec<F extends z.ZodObject> = Omit<ProcessingRouteSpec<F>, 'files' | 'response' | 'handler'>;
const passwordOf = (fields: object) => (fields as { password?: string }).password;

/** One PDF in (opened with its `password`), one PDF out: a step of steps.ts behind its route. */
function pdfStepRoute(
  app: FastifyInstance,
  path: PdfStepPath,
  spec: { summary: string; description?: string; files?: FileSpec },
): void {
  const step: PdfStep = pdfSteps[path];
  registerProcessingRoute(app, {
    path: path.replace(/^\/pdf/, ''),
    summary: spec.summary,
    description: spec.description,
    fields: step.fields,
    files: spec.files ?? one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, upload, job, prepare }) {
      const extras = { image: upload.files.find((f) => f.field === 'image') };
      step.check?.(fields, extras);
      const input = await prepare(pdfs[0]!, { password: passwordOf(fields) });
      const out = await step.run(job, input, fields, extras);
      return sendPdf(request, reply, pdfs[0]!, out, out.headers);
    },
  });
}

/** One PDF in, a JSON report out. */
function pdfToDataRoute<F extends z.ZodObject>(
  app: FastifyInstance,
  spec: OneInSpec<F> & {
    response: z.ZodType;
    run(job: ops.PdfJob, input: ops.PreparedPdf, fields: z.output<F>): Promise<unknown>;
  },
): void {
  registerProcessingRoute(app, {
    ...spec,
    files: one,
    async handler({ reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: passwordOf(fields) });
      return sendData(reply, await spec.run(job, input, fields));
    },
  });
}

export async function pdfRoutes(app: FastifyInstance): Promise<void> {
  registerProcessingRoute(app, {
    path: '/merge',
    summary: 'Merge 2-20 PDFs into one',
    description:
      'Files are merged in the order sent, or in `order` (e.g. "2,1,3"). Each input is checked against the plan page limit, and so is the result.',
    fields: ZMergePdfFields,
    files: { field: 'files', min: 2, max: 20, description: 'The PDFs, 2 to 20' },
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      let files = pdfs;
      if (fields.order?.trim()) {
        const order = fields.order.split(',').map((s) => Number(s.trim()));
        const valid =
          order.length === pdfs.length &&
          order.every((n) => Number.isInteger(n) && n >= 1 && n <= pdfs.length) &&
          new Set(order).size === order.length;
        if (!valid) {
          throw new AppError(
            'INVALID_INPUT',
            `order: list each of the ${pdfs.length} files once, 1-based, e.g. "${pdfs.map((_, i) => pdfs.length - i).join(',')}"`,
            {
              details: { field: 'order' },
            },
          );
        }
        files = order.map((n) => pdfs[n - 1]!);
      }
      // With PROCESSING_SPECULATE the merge starts at once, and its result is used only if the checks pass.
      const spec = await ops.speculateMerge(job, files);
      const prepared = await ops.prepareAll(files, (f) => prepare(f as UploadedFile), spec);
      const merged = await ops.mergePdfs(job, prepared, spec);
      return sendPdf(request, reply, files[0]!, merged);
    },
  });

  registerProcessingRoute(app, {
    path: '/split',
    summary: 'Split a PDF into several (zip)',
    description:
      'mode=ranges: one PDF per item of `ranges` ("1-3,5" gives pages 1-3 and page 5); mode=every: chunks of `every` pages; mode=each: one PDF per page.',
    fields: ZSplitPdfFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const parts = await ops.splitPdf(job, input, { mode: fields.mode, ranges: fields.ranges, every: fields.every });
      return sendMany(request, reply, pdfs[0]!, parts, 'split', 'pdf', input.pages);
    },
  });

  pdfStepRoute(app, '/pdf/extract-pages', { summary: 'Keep only some pages' });

  pdfStepRoute(app, '/pdf/delete-pages', { summary: 'Remove pages' });

  pdfStepRoute(app, '/pdf/rotate', { summary: 'Rotate pages by 90, 180 or 270 degrees clockwise' });

  pdfStepRoute(app, '/pdf/reorder', { summary: 'Put the pages in a new order' });

  pdfStepRoute(app, '/pdf/watermark', {
    summary: 'Add a text or image watermark',
    description:
      'Send `text`, or an `image` file (PNG, JPEG, WebP…). Positions: center, the corners and edges, or diagonal; `repeat` tiles it over the page.',
    files: { ...one, extra: { image: 'Watermark image (instead of text)' } },
  });

  pdfStepRoute(app, '/pdf/page-numbers', { summary: 'Number the pages' });

  registerProcessingRoute(app, {
    path: '/protect',
    summary: 'Encrypt with AES-256 and set permissions',
    description:
      'permissions lists what stays allowed (print, copy, modify, annotate), or use allowPrint/allowCopy/allowModify/allowAnnotate.',
    fields: ZProtectPdfFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const opts = protectOptions(fields);
      // qpdf encrypts about as fast as the checks run: it starts at once, its result used only if they pass.
      const spec = fields.password ? undefined : await ops.speculateProtect(job, pdfs[0]!, opts);
      const [input] = await ops.prepareAll(
        [pdfs[0]!],
        (f) => prepare(f as UploadedFile, { password: fields.password }),
        spec,
      );
      const out = await ops.protectPdf(job, input!, opts, spec);
      return sendPdf(request, reply, pdfs[0]!, out);
    },
  });

  pdfStepRoute(app, '/pdf/unlock', { summary: 'Remove the password and restrictions' });

  pdfToDataRoute(app, {
    path: '/metadata',
    summary: 'Read the document information',
    fields: ZPasswordOnlyFields,
    response: ZPdfMetadataResponse,
    run: (job, input) => ops.readMetadata(job, input),
  });

  pdfStepRoute(app, '/pdf/metadata/update', {
    summary: 'Write the document information',
    description:
      'Fields sent are set; fields listed in `clear` are removed; others are kept. The modification date is set to now unless given.',
  });

  pdfToDataRoute(app, {
    path: '/analyze',
    summary: 'Pages, sizes, version, encryption, fonts, images, forms, text or scanned, size breakdown',
    fields: ZPasswordOnlyFields,
    response: ZPdfAnalysisResponse,
    run: (job, input) => ops.analyzePdf(job, input),
  });

  registerProcessingRoute(app, {
    path: '/extract-text',
    summary: 'Text per page, with word boxes on request',
    fields: ZExtractTextFields,
    files: one,
    response: ZExtractTextResponse,
    async handler({ reply, fields, files: pdfs, job, prepare }) {
      const opts = { pageRange: fields.pageRange, layout: fields.layout, words: fields.words };
      const spec = fields.password ? undefined : await ops.speculateText(job, pdfs[0]!, opts);
      const [input] = await ops.prepareAll(
        [pdfs[0]!],
        (f) => prepare(f as UploadedFile, { password: fields.password }),
        spec,
      );
      const r = await ops.extractText(job, input!, opts, spec);
      return sendData(reply, { ...r, pageCount: input!.pages });
    },
  });

  pdfStepRoute(app, '/pdf/compress', {
    summary: 'Make the file smaller (never larger)',
    description:
      'Answers X-Original-Size and X-Compressed-Size. When no level makes the file smaller, the original comes back unchanged.',
  });

  pdfToDataRoute(app, {
    path: '/compression-analysis',
    summary: 'Estimated size per compression level, image and font weight, a recommendation',
    fields: ZPasswordOnlyFields,
    response: ZCompressionAnalysisResponse,
    run: (job, input) => ops.compressionAnalysis(job, input),
  });

  registerProcessingRoute(app, {
    path: '/to-images',
    summary: 'Render pages to PNG or JPEG (one image, or a zip)',
    fields: ZToImagesFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const images = await ops.renderPages(job, input, {
        format: fields.format,
        dpi: fields.dpi,
        pages: fields.pages,
        quality: fields.quality,
        maxPixels: 100_000_000,
      });
      return sendMany(request, reply, pdfs[0]!, images, 'images', fields.format, input.pages);
    },
  });

  registerProcessingRoute(app, {
    path: '/extract-images',
    summary: 'Extract the embedded images (zip)',
    fields: ZExtractImagesFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const images = await ops.extractImages(job, input, fields.pages);
      if (images.length === 0) {
        throw new AppError(
          'INVALID_INPUT',
          'file: this PDF holds no images' + (fields.pages ? ' on the pages asked' : ''),
          { details: { field: 'file' } },
        );
      }
      const entries = images.map((i) => ({ path: i.path, name: `${baseName(pdfs[0]!.filename)}-${i.name}` }));
      return sendZip(request, reply, entries, outputName(pdfs[0]!.filename, 'images', 'zip'), { pages: input.pages });
    },
  });

  pdfStepRoute(app, '/pdf/flatten', { summary: 'Burn form fields and annotations into the pages' });

  registerProcessingRoute(app, {
    path: '/repair',
    summary: 'Rebuild a damaged PDF where possible',
    fields: ZPasswordOnlyFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, files: pdfs, job }) {
      const f = pdfs[0]!;
      const out = await ops.repairPdf(job, f, `"${f.filename}"`);
      request.usage.pages = out.pages;
      return sendPdf(request, reply, f, out);
    },
  });

  pdfStepRoute(app, '/pdf/to-pdfa', { summary: 'Convert to PDF/A-2b (archival)' });

  pdfStepRoute(app, '/pdf/crop', {
    summary: 'Crop pages to a box or to their content, or scale them to a paper size',
    description:
      'mode=box crops to `box` ("x,y,width,height" in `unit`: pt, mm or in, from the bottom-left corner of the page as shown); ' +
      'mode=content crops to what is drawn (found by rendering the page) plus `margin`, and leaves a page with nothing drawn as it is; ' +
      'mode=scale scales each page, content and annotations, onto `size` paper (A3, A4, A5, Letter, Legal, Tabloid), aspect ratio kept, centred, ' +
      'landscape for a landscape page. MediaBox and CropBox are both set; the text stays text.',
  });

  pdfStepRoute(app, '/pdf/remove-blank-pages', {
    summary: 'Remove blank pages (no text, next to no ink), scanned ones included',
    description:
      'A page is blank when it has no text and at most `threshold` of it is darker than `whiteLevel`, measured on the rendered page in cells of 4 × 4 pt (so a scanned blank page with a little noise is blank, a page with a small drawn mark is not). ' +
      'Answers X-Removed-Pages (the removed page numbers, e.g. "2,5"; empty when none) and X-Removed-Count. A PDF whose every page is blank is refused: 422 ALL_PAGES_BLANK.',
  });
}
