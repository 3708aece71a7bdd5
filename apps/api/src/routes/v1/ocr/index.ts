import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  ZErrorResponse,
  ZFileResultResponse,
  ZOcrEnhancedFields,
  ZOcrEnhancedResponse,
  ZOcrExtractFields,
  ZOcrExtractResponse,
  ZOcrLanguagesResponse,
  ZOcrQualityFields,
  ZOcrQualityResponse,
  ZOcrSearchablePdfFields,
} from '@docflow/contracts';
import { ocrInput } from '../../../core/ocr/input';
import { installedLanguages } from '../../../core/ocr/languages';
import * as ocr from '../../../core/ocr/operations';
import { outputName, sendData, sendFile } from '../../../lib/send-result';
import {
  registerProcessingRoute,
  type FileSpec,
  type ProcessingRouteContext,
} from '../../../plugins/processing-routes';

const one: FileSpec = { field: 'file', min: 1, max: 1, description: 'An image (png, jpg, tiff, bmp, webp) or a PDF' };
const common = { group: 'ocr' as const, noun: 'image or PDF', files: one };

/** The upload as OCR input: a PDF is opened (and counted against the plan) like every PDF input. */
const inputOf = <F extends { password?: string }>(ctx: ProcessingRouteContext<F>) =>
  ocrInput(ctx.files[0]!, () => ctx.prepare(ctx.files[0]!, { password: ctx.fields.password }));

/** Images are metered by their pages too (a multi-page TIFF counts each frame). */
function meterImagePages<F>(ctx: ProcessingRouteContext<F>, input: ocr.OcrInput, pages: number): void {
  if (input.kind === 'image') ctx.request.usage.pages = pages;
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

export async function ocrRoutes(app: FastifyInstance): Promise<void> {
  registerProcessingRoute(app, {
    ...common,
    path: '/extract',
    summary: 'Text of an image or a scanned PDF: per page lines (and words) with boxes and confidence',
    fields: ZOcrExtractFields,
    response: ZOcrExtractResponse,
    async handler(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrExtract(ctx.job, input, { ...readingOptions(f), preprocess: f.preprocessImage });
      meterImagePages(ctx, input, r.pageCount);
      return sendData(ctx.reply, r, { 'X-Ocr-Confidence': r.confidence });
    },
  });

  registerProcessingRoute(app, {
    ...common,
    path: '/enhanced',
    summary: 'OCR of poor scans: deskew, denoise, binarize, upscale; several passes, the most confident kept',
    description:
      'Each page is read several ways (as is; straightened, denoised and contrast-stretched; binarized; upscaled when under 250 dpi) in parallel, and the pass with the best mean confidence among those that found most of the words is kept. `pass` and `passes` tell which won.',
    fields: ZOcrEnhancedFields,
    response: ZOcrEnhancedResponse,
    async handler(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrEnhanced(ctx.job, input, readingOptions(f));
      meterImagePages(ctx, input, r.pageCount);
      return sendData(ctx.reply, r, { 'X-Ocr-Confidence': r.confidence });
    },
  });

  registerProcessingRoute(app, {
    ...common,
    path: '/analyze-quality',
    summary: 'How fit a scan is for OCR: resolution, contrast, blur, skew, a 0-100 score and advice',
    fields: ZOcrQualityFields,
    response: ZOcrQualityResponse,
    async handler(ctx) {
      const input = await inputOf(ctx);
      const r = await ocr.ocrAnalyzeQuality(ctx.job, input, { pageRange: ctx.fields.pageRange });
      meterImagePages(ctx, input, r.pageCount);
      return sendData(ctx.reply, r);
    },
  });

  registerProcessingRoute(app, {
    ...common,
    path: '/searchable-pdf',
    summary: 'A PDF with an invisible text layer over the original pages',
    description:
      'PDF input: every page keeps its content unchanged and gets the recognised text as an invisible layer; pages that already have text are left as they are unless force=true. Image input: one page per image (each TIFF frame), the image with the text over it. Answers X-Ocr-Pages, X-Ocr-Skipped-Pages and X-Ocr-Confidence.',
    fields: ZOcrSearchablePdfFields,
    response: ZFileResultResponse.describe(
      'The PDF itself (application/pdf); with Accept: application/json, this JSON',
    ),
    async handler(ctx) {
      const { fields: f } = ctx;
      const input = await inputOf(ctx);
      const r = await ocr.ocrSearchablePdf(ctx.job, input, {
        languages: f.languages,
        psm: f.psm,
        dpi: f.dpi,
        pageRange: f.pageRange,
        force: f.force,
      });
      meterImagePages(ctx, input, r.pages ?? 0);
      return sendFile(
        ctx.request,
        ctx.reply,
        {
          path: r.path,
          fileName: outputName(ctx.files[0]!.filename, 'searchable', 'pdf'),
          mimeType: 'application/pdf',
          pages: r.pages,
        },
        {
          'X-Ocr-Pages': r.ocrPages.length,
          'X-Ocr-Skipped-Pages': r.skippedPages.join(',') || 'none',
          'X-Ocr-Confidence': r.confidence,
        },
      );
    },
  });

  app.get(
    '/languages',
    {
      ...app.processingGuard('ocr'),
      schema: {
        tags: ['ocr'],
        security: [{ apiKey: [] }],
        summary: 'The installed OCR languages (codes for the `languages` field)',
        response: {
          200: ZOcrLanguagesResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          429: ZErrorResponse,
          503: ZErrorResponse,
        },
      },
    },
    async (_request, reply) => {
      const languages = await installedLanguages(app.engines, app.config.tmpDir);
      return sendData(reply, { languages, default: 'eng' });
    },
  );
}
