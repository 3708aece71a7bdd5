import {
  ZCompressionAnalysisResponse,
  ZExtractTextResponse,
  ZFileResultResponse,
  ZPdfAnalysisResponse,
  ZPdfMetadataResponse,
  endpointCatalogue,
} from '@docflow/contracts';
import { AppError } from '../../lib/app-error';
import { mimeOf, outputName, baseName } from '../../lib/send-result';
import { dataOutcome, fileOutcome, zipOutcome } from '../../lib/outcome';
import type { UploadedFile } from '../../lib/uploads';
import { analyzePdf } from '../../core/operations/pdf/analyze';
import { compressionAnalysis } from '../../core/operations/pdf/analyze-compression';
import { extractImages } from '../../core/operations/pdf/extract-images';
import { extractText, speculateText } from '../../core/operations/pdf/extract-text';
import type { OutputFile, PdfJob, PreparedPdf } from '../../core/operations/pdf/job';
import { mergePdfs, speculateMerge } from '../../core/operations/pdf/merge';
import { readMetadata } from '../../core/operations/pdf/metadata-read';
import { protectPdf, speculateProtect } from '../../core/operations/pdf/protect';
import { renderPages } from '../../core/operations/pdf/render';
import { repairPdf } from '../../core/operations/pdf/repair';
import { prepareAll } from '../../core/operations/pdf/speculation';
import { splitPdf } from '../../core/operations/pdf/split';
import type { z } from 'zod';
import { defineEndpoint, type EndpointPath, type FileDoc, type ProcessingEndpoint } from '../processing-endpoint';
import { pdfSteps, protectOptions, type PdfStep, type PdfStepPath } from './steps';
import { formEndpoints } from '../forms/index';
import { extractEndpoints } from '../extract/index';

const one: FileDoc = { description: 'The PDF document' };
const fileAnswer = ZFileResultResponse.describe(
  'The resulting file itself (application/pdf, image/*, or application/zip for several files) with Content-Disposition; with Accept: application/json, this JSON',
);

/** A single PDF produced from `input`. */
function pdfOutcome(from: UploadedFile, file: OutputFile, headers?: Record<string, string | number>) {
  return fileOutcome(
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
function manyOutcome(from: UploadedFile, files: OutputFile[], suffix: string, ext: string, pages?: number) {
  if (files.length === 1) {
    const f = files[0]!;
    return fileOutcome({
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
  return zipOutcome(entries, outputName(from.filename, suffix, 'zip'), { pages });
}

const passwordOf = (fields: object) => (fields as { password?: string }).password;

/** One PDF in (opened with its `password`), one PDF out: a step of steps.ts behind its endpoint. */
function pdfStepEndpoint(path: PdfStepPath): ProcessingEndpoint {
  const step: PdfStep = pdfSteps[path];
  return defineEndpoint(path, {
    description: step.description,
    files: step.files ?? one,
    response: fileAnswer,
    async run({ fields, files: pdfs, extras, job, prepare }) {
      step.check?.(fields, extras);
      const input = await prepare(pdfs[0]!, { password: passwordOf(fields) });
      const out = await step.run(job, input, fields, extras);
      return pdfOutcome(pdfs[0]!, out, out.headers);
    },
  });
}

/** One PDF in, a JSON report out. */
function pdfToDataEndpoint(
  path: EndpointPath,
  spec: { response: z.ZodType; read(job: PdfJob, input: PreparedPdf): Promise<unknown> },
): ProcessingEndpoint {
  return defineEndpoint(path, {
    files: one,
    response: spec.response,
    async run({ fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: passwordOf(fields) });
      return dataOutcome(await spec.read(job, input));
    },
  });
}

/** The PDF endpoints that are more than a step: several files in, data or a zip out, or work of their own. */
const ownEndpoints: readonly ProcessingEndpoint[] = [
  defineEndpoint('/pdf/merge', {
    description:
      'Files are merged in the order sent, or in `order` (e.g. "2,1,3"). Each input is checked against the plan page limit, and so is the result.',
    files: { description: 'The PDFs, 2 to 20' },
    response: fileAnswer,
    async run({ fields, files: pdfs, job, prepare }) {
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
      const spec = await speculateMerge(job, files);
      const prepared = await prepareAll(files, (f) => prepare(f as UploadedFile), spec);
      const merged = await mergePdfs(job, prepared, spec);
      return pdfOutcome(files[0]!, merged);
    },
  }),

  defineEndpoint('/pdf/split', {
    description:
      'mode=ranges: one PDF per item of `ranges` ("1-3,5" gives pages 1-3 and page 5); mode=every: chunks of `every` pages; mode=each: one PDF per page.',
    files: one,
    response: fileAnswer,
    async run({ fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const parts = await splitPdf(job, input, { mode: fields.mode, ranges: fields.ranges, every: fields.every });
      return manyOutcome(pdfs[0]!, parts, 'split', 'pdf', input.pages);
    },
  }),

  defineEndpoint('/pdf/protect', {
    description:
      'permissions lists what stays allowed (print, copy, modify, annotate), or use allowPrint/allowCopy/allowModify/allowAnnotate.',
    files: one,
    response: fileAnswer,
    async run({ fields, files: pdfs, job, prepare }) {
      const opts = protectOptions(fields);
      // qpdf encrypts about as fast as the checks run: it starts at once, its result used only if they pass.
      const spec = fields.password ? undefined : await speculateProtect(job, pdfs[0]!, opts);
      const [input] = await prepareAll(
        [pdfs[0]!],
        (f) => prepare(f as UploadedFile, { password: fields.password }),
        spec,
      );
      const out = await protectPdf(job, input!, opts, spec);
      return pdfOutcome(pdfs[0]!, out);
    },
  }),

  pdfToDataEndpoint('/pdf/metadata', {
    response: ZPdfMetadataResponse,
    read: (job, input) => readMetadata(job, input),
  }),

  pdfToDataEndpoint('/pdf/analyze', {
    response: ZPdfAnalysisResponse,
    read: (job, input) => analyzePdf(job, input),
  }),

  defineEndpoint('/pdf/extract-text', {
    files: one,
    response: ZExtractTextResponse,
    async run({ fields, files: pdfs, job, prepare }) {
      const opts = { pageRange: fields.pageRange, layout: fields.layout, words: fields.words };
      const spec = fields.password ? undefined : await speculateText(job, pdfs[0]!, opts);
      const [input] = await prepareAll(
        [pdfs[0]!],
        (f) => prepare(f as UploadedFile, { password: fields.password }),
        spec,
      );
      const r = await extractText(job, input!, opts, spec);
      return dataOutcome({ ...r, pageCount: input!.pages });
    },
  }),

  pdfToDataEndpoint('/pdf/compression-analysis', {
    response: ZCompressionAnalysisResponse,
    read: (job, input) => compressionAnalysis(job, input),
  }),

  defineEndpoint('/pdf/to-images', {
    files: one,
    response: fileAnswer,
    async run({ fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const images = await renderPages(job, input, {
        format: fields.format,
        dpi: fields.dpi,
        pages: fields.pages,
        quality: fields.quality,
        maxPixels: 100_000_000,
      });
      return manyOutcome(pdfs[0]!, images, 'images', fields.format, input.pages);
    },
  }),

  defineEndpoint('/pdf/extract-images', {
    files: one,
    response: fileAnswer,
    async run({ fields, files: pdfs, job, prepare }) {
      const input = await prepare(pdfs[0]!, { password: fields.password });
      const images = await extractImages(job, input, fields.pages);
      if (images.length === 0) {
        throw new AppError(
          'INVALID_INPUT',
          'file: this PDF holds no images' + (fields.pages ? ' on the pages asked' : ''),
          { details: { field: 'file' } },
        );
      }
      const entries = images.map((i) => ({ path: i.path, name: `${baseName(pdfs[0]!.filename)}-${i.name}` }));
      return zipOutcome(entries, outputName(pdfs[0]!.filename, 'images', 'zip'), { pages: input.pages });
    },
  }),

  defineEndpoint('/pdf/repair', {
    files: one,
    response: fileAnswer,
    async run({ files: pdfs, job, meter }) {
      const f = pdfs[0]!;
      const out = await repairPdf(job, f, `"${f.filename}"`);
      meter.pages = out.pages;
      return pdfOutcome(f, out);
    },
  }),
];

const catalogueOrder = (e: ProcessingEndpoint) => endpointCatalogue.findIndex((c) => c.path === e.path);

/**
 * Every PDF endpoint, in the catalogue's order: the own ones, the structured extraction ones (endpoints/extract), and
 * one for each step that has none of its own.
 */
export const pdfEndpoints: readonly ProcessingEndpoint[] = [
  ...ownEndpoints,
  ...formEndpoints,
  ...extractEndpoints,
  ...(Object.keys(pdfSteps) as PdfStepPath[])
    .filter((path) => !ownEndpoints.some((e) => e.path === path))
    .map(pdfStepEndpoint),
].sort((a, b) => catalogueOrder(a) - catalogueOrder(b));
