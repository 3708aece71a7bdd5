import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ZCompressionAnalysisResponse,
  ZCompressPdfFields,
  ZDeletePagesFields,
  ZExtractImagesFields,
  ZExtractPagesFields,
  ZExtractTextFields,
  ZExtractTextResponse,
  ZFileResultResponse,
  ZMergePdfFields,
  ZMetadataUpdateFields,
  ZPageNumbersFields,
  ZPasswordOnlyFields,
  ZPdfAnalysisResponse,
  ZPdfMetadataResponse,
  ZProtectPdfFields,
  ZReorderPdfFields,
  ZRotatePdfFields,
  ZSplitPdfFields,
  ZToImagesFields,
  ZUnlockPdfFields,
  ZWatermarkPdfFields,
  pdfPermissionNames,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { mimeOf, outputName, baseName, sendData, sendFile, sendZip } from '../../../lib/send-result';
import type { UploadedFile } from '../../../lib/uploads';
import * as ops from '../../../core/pdf/operations';
import type { MetadataUpdate, PdfPermissions } from '../../../core/interfaces';
import type { ImageMark, TextMark } from '../../../core/pdf/stamp';
import { watermarkImage } from '../../../core/pdf/watermark-image';
import type { z } from 'zod';
import { registerProcessingRoute, type FileSpec, type ProcessingRouteSpec } from '../../../plugins/processing-routes';

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

function permissionsFrom(f: {
  permissions?: string;
  allowPrint?: boolean;
  allowCopy?: boolean;
  allowModify?: boolean;
  allowAnnotate?: boolean;
}): PdfPermissions {
  const p: PdfPermissions = { print: true, copy: true, modify: true, annotate: true };
  if (f.permissions !== undefined) {
    const list = f.permissions
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    if (list.length === 1 && list[0] === 'all') {
      /* everything allowed */
    } else {
      for (const k of pdfPermissionNames) p[k] = false;
      for (const item of list) {
        if (item === 'none') continue;
        if (!(pdfPermissionNames as readonly string[]).includes(item)) {
          throw new AppError(
            'INVALID_INPUT',
            `permissions: unknown permission "${item}" (valid: ${pdfPermissionNames.join(', ')}, all, none)`,
            {
              details: { field: 'permissions', valid: [...pdfPermissionNames, 'all', 'none'] },
            },
          );
        }
        p[item as keyof PdfPermissions] = true;
      }
    }
  }
  if (f.allowPrint !== undefined) p.print = f.allowPrint;
  if (f.allowCopy !== undefined) p.copy = f.allowCopy;
  if (f.allowModify !== undefined) p.modify = f.allowModify;
  if (f.allowAnnotate !== undefined) p.annotate = f.allowAnnotate;
  return p;
}

const CLEARABLE = ['title', 'author', 'subject', 'keywords', 'creator', 'producer'] as const;

type OneInSpec<F extends z.ZodObject> = Omit<ProcessingRouteSpec<F>, 'files' | 'response' | 'handler'>;
const passwordOf = (fields: object) => (fields as { password?: string }).password;

/** One PDF in (opened with its `password`), one PDF out: the shape of most routes. */
function pdfToPdfRoute<F extends z.ZodObject>(
  app: FastifyInstance,
  spec: OneInSpec<F> & { run(job: ops.PdfJob, input: ops.PreparedPdf, fields: z.output<F>): Promise<ops.OutputFile> },
): void {
  registerProcessingRoute(app, {
    ...spec,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: passwordOf(fields) });
      return sendPdf(request, reply, pdfs[0]!, await spec.run(job, input, fields));
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
      // pdfunite is about as fast as the checks: it starts at once and its result is used only if they pass.
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

  pdfToPdfRoute(app, {
    path: '/extract-pages',
    summary: 'Keep only some pages',
    fields: ZExtractPagesFields,
    run: (job, input, fields) => ops.extractPages(job, input, fields.pages),
  });

  pdfToPdfRoute(app, {
    path: '/delete-pages',
    summary: 'Remove pages',
    fields: ZDeletePagesFields,
    run: (job, input, fields) => ops.deletePages(job, input, fields.pages),
  });

  pdfToPdfRoute(app, {
    path: '/rotate',
    summary: 'Rotate pages by 90, 180 or 270 degrees clockwise',
    fields: ZRotatePdfFields,
    run: (job, input, fields) => ops.rotatePages(job, input, fields.angle, fields.pages),
  });

  pdfToPdfRoute(app, {
    path: '/reorder',
    summary: 'Put the pages in a new order',
    fields: ZReorderPdfFields,
    run: (job, input, fields) => ops.reorderPages(job, input, fields.order),
  });

  registerProcessingRoute(app, {
    path: '/watermark',
    summary: 'Add a text or image watermark',
    description:
      'Send `text`, or an `image` file (PNG, JPEG, WebP…). Positions: center, the corners and edges, or diagonal; `repeat` tiles it over the page.',
    fields: ZWatermarkPdfFields,
    files: { ...one, extra: { image: 'Watermark image (instead of text)' } },
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, upload, job, prepare }) {
      const imageFile = upload.files.find((f) => f.field === 'image');
      if (!fields.text && !imageFile) {
        throw new AppError('INVALID_INPUT', 'text: give a watermark text, or an image file in the "image" field', {
          details: { field: 'text' },
        });
      }
      if (fields.text && imageFile) {
        throw new AppError('INVALID_INPUT', 'text, image: give either a text or an image, not both', {
          details: { field: 'text' },
        });
      }
      const mark: TextMark | ImageMark = imageFile
        ? await watermarkImage(imageFile.path, fields.scale)
        : { kind: 'text', text: fields.text!, fontSize: fields.fontSize, font: fields.font };
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const out = await ops.watermarkPdf(
        job,
        input,
        {
          mark,
          position: fields.position,
          opacity: fields.opacity,
          color: fields.color,
          rotation: fields.rotation,
          repeat: fields.repeat,
          spacingX: fields.spacingX,
          spacingY: fields.spacingY,
          margin: fields.margin,
        },
        fields.pages,
      );
      return sendPdf(request, reply, pdfs[0]!, out);
    },
  });

  pdfToPdfRoute(app, {
    path: '/page-numbers',
    summary: 'Number the pages',
    fields: ZPageNumbersFields,
    run: (job, input, f) =>
      ops.numberPages(
        job,
        input,
        {
          position: f.position,
          format: f.format,
          startAt: f.startAt,
          fontSize: f.fontSize,
          color: f.color,
          margin: f.margin,
        },
        f.pages,
      ),
  });

  registerProcessingRoute(app, {
    path: '/protect',
    summary: 'Encrypt with AES-256 and set permissions',
    description:
      'permissions lists what stays allowed (print, copy, modify, annotate), or use allowPrint/allowCopy/allowModify/allowAnnotate.',
    fields: ZProtectPdfFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const opts = {
        userPassword: fields.userPassword,
        ownerPassword: fields.ownerPassword,
        permissions: permissionsFrom(fields),
      };
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

  pdfToPdfRoute(app, {
    path: '/unlock',
    summary: 'Remove the password and restrictions',
    fields: ZUnlockPdfFields,
    run: (job, input) => ops.unlockPdf(job, input),
  });

  pdfToDataRoute(app, {
    path: '/metadata',
    summary: 'Read the document information',
    fields: ZPasswordOnlyFields,
    response: ZPdfMetadataResponse,
    run: (job, input) => ops.readMetadata(job, input),
  });

  registerProcessingRoute(app, {
    path: '/metadata/update',
    summary: 'Write the document information',
    description:
      'Fields sent are set; fields listed in `clear` are removed; others are kept. The modification date is set to now unless given.',
    fields: ZMetadataUpdateFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const update: MetadataUpdate = {};
      for (const k of CLEARABLE) if (fields[k] !== undefined) update[k] = fields[k];
      for (const item of (fields.clear ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)) {
        if (!(CLEARABLE as readonly string[]).includes(item)) {
          throw new AppError('INVALID_INPUT', `clear: unknown field "${item}" (valid: ${CLEARABLE.join(', ')})`, {
            details: { field: 'clear' },
          });
        }
        update[item as (typeof CLEARABLE)[number]] = null;
      }
      if (fields.creationDate) update.creationDate = new Date(fields.creationDate);
      update.modificationDate = fields.modificationDate ? new Date(fields.modificationDate) : new Date();
      const input = await prepare(pdfs[0]!, { password: fields.password });
      return sendPdf(request, reply, pdfs[0]!, await ops.updateMetadata(job, input, update));
    },
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

  registerProcessingRoute(app, {
    path: '/compress',
    summary: 'Make the file smaller (never larger)',
    description:
      'Answers X-Original-Size and X-Compressed-Size. When no level makes the file smaller, the original comes back unchanged.',
    fields: ZCompressPdfFields,
    files: one,
    response: fileAnswer,
    async handler({ request, reply, fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const r = await ops.compressPdf(job, input, fields.level);
      return sendPdf(request, reply, pdfs[0]!, r, {
        'X-Original-Size': r.originalSize,
        'X-Compressed-Size': r.compressedSize,
        'X-Compression-Engine': r.reduced ? r.engine : 'none',
      });
    },
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

  pdfToPdfRoute(app, {
    path: '/flatten',
    summary: 'Burn form fields and annotations into the pages',
    fields: ZPasswordOnlyFields,
    run: (job, input) => ops.flattenPdf(job, input),
  });

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

  pdfToPdfRoute(app, {
    path: '/to-pdfa',
    summary: 'Convert to PDF/A-2b (archival)',
    fields: ZPasswordOnlyFields,
    run: (job, input) => ops.toPdfa(job, input),
  });
}
