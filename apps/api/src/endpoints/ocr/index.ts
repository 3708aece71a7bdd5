import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  ZFileResultResponse,
  ZOcrEnhancedFields,
  ZOcrEnhancedResponse,
  ZOcrExtractResponse,
  ZOcrQualityResponse,
} from '@docflow/contracts';
import { ocrInput } from '../../core/operations/ocr/input';
import * as ocr from '../../core/operations/ocr/index';
import { outputName } from '../../lib/send-result';
import { dataOutcome, fileOutcome } from '../../lib/outcome';
import { defineEndpoint, type EndpointContext, type FileDoc, type ProcessingEndpoint } from '../processing-endpoint';

const common = {
  noun: 'image or PDF',
  files: { description: 'An image (png, jpg, tiff, bmp, webp) or a PDF' } satisfies FileDoc,
};

/** The upload as OCR input: a PDF is opened (and counted against the plan) like every PDF input. */
const inputOf = <F extends { password?: string }>(ctx: EndpointContext<F>) =>
  ocrInput(ctx.files[0]!, () => ctx.prepare(ctx.files[0]!, { password: ctx.fields.password }));

/** Images are metered by their pages too (a multi-page TIFF counts each frame). */
function meterImagePages<F>(ctx: EndpointContext<F>, input: ocr.OcrInput, pages: number): void {
  if (input.kind === 'image') ctx.meter.pages = pages;
}

/** The reading fields extract and enhanced share, as the core takes them. */
const readingOptions = (f: z.output<typeof ZOcrEnhancedFields>) => ({
  languages: f.languages,
  psm: f.psm,
  whitelist: f.whitelist,
  dpi: f.dpi,
  pageRange: f.pageRange,
  words: f.includeWordDetails,
});

/** The OCR endpoints, in the catalogue's order. */
export const ocrEndpoints: readonly ProcessingEndpoint[] = [
  defineEndpoint('/ocr/extract', {
    ...common,
    response: ZOcrExtractResponse,
    async run(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrExtract(ctx.job, input, { ...readingOptions(f), preprocess: f.preprocessImage });
      meterImagePages(ctx, input, r.pageCount);
      return dataOutcome(r, { 'X-Ocr-Confidence': r.confidence });
    },
  }),

  defineEndpoint('/ocr/enhanced', {
    ...common,
    description:
      'Each page is read several ways (as is; straightened, denoised and contrast-stretched; binarized; upscaled when under 250 dpi) in parallel, and the pass with the best mean confidence among those that found most of the words is kept. `pass` and `passes` tell which won.',
    response: ZOcrEnhancedResponse,
    async run(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrEnhanced(ctx.job, input, readingOptions(f));
      meterImagePages(ctx, input, r.pageCount);
      return dataOutcome(r, { 'X-Ocr-Confidence': r.confidence });
    },
  }),

  defineEndpoint('/ocr/analyze-quality', {
    ...common,
    response: ZOcrQualityResponse,
    async run(ctx) {
      const input = await inputOf(ctx);
      const r = await ocr.ocrAnalyzeQuality(ctx.job, input, { pageRange: ctx.fields.pageRange });
      meterImagePages(ctx, input, r.pageCount);
      return dataOutcome(r);
    },
  }),

  defineEndpoint('/ocr/searchable-pdf', {
    ...common,
    description:
      "PDF input: every page keeps its content unchanged and gets the recognised text as an invisible layer; pages that already have text are left as they are (mode skip-text) unless mode=force (every page rasterised and OCR-ed). OCRmyPDF's options: deskew, rotatePages, clean, sidecar (a ZIP with the text), outputType pdfa, optimize 0-3. Image input: one page per image (each TIFF frame), the image with the text over it. Answers X-Ocr-Pages, X-Ocr-Skipped-Pages, X-Ocr-Rotated-Pages, X-Ocr-Deskewed-Pages and X-Ocr-Confidence.",
    response: ZFileResultResponse.describe(
      'The PDF itself (application/pdf); with Accept: application/json, this JSON',
    ),
    async run(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrSearchablePdf(ctx.job, input, {
        languages: f.languages,
        psm: f.psm,
        dpi: f.dpi,
        pageRange: f.pageRange,
        mode: f.force ? 'force' : f.mode,
        deskew: f.deskew,
        rotatePages: f.rotatePages,
        clean: f.clean,
        outputType: f.outputType,
        optimize: f.optimize as 0 | 1 | 2 | 3,
      });
      meterImagePages(ctx, input, r.pages ?? 0);
      const fileName = outputName(ctx.files[0]!.filename, 'searchable', 'pdf');
      const headers = {
        'X-Ocr-Pages': r.ocrPages.length,
        'X-Ocr-Skipped-Pages': r.skippedPages.join(',') || 'none',
        'X-Ocr-Confidence': r.confidence,
        'X-Ocr-Rotated-Pages':
          Object.entries(r.rotatedPages)
            .map(([p, a]) => `${p}:${a}`)
            .join(',') || 'none',
        'X-Ocr-Deskewed-Pages':
          Object.entries(r.deskewedPages)
            .map(([p, a]) => `${p}:${a}`)
            .join(',') || 'none',
      };
      if (f.sidecar) {
        const text = path.join(path.dirname(r.path), 'sidecar.txt');
        await writeFile(text, r.text, 'utf8');
        return {
          kind: 'zip',
          files: [
            { path: r.path, name: fileName },
            { path: text, name: fileName.replace(/\.pdf$/i, '.txt') },
          ],
          zipName: fileName.replace(/\.pdf$/i, '.zip'),
          pages: r.pages,
          headers,
        };
      }
      return fileOutcome({ path: r.path, fileName, mimeType: 'application/pdf', pages: r.pages }, headers);
    },
  }),
];
