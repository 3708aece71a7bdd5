import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorResponse, successEnvelope } from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { receiveUpload } from '../../../lib/uploads';
import { detectFormat } from '../../../core/convert/detect-format';

export const ZDetectResponse = successEnvelope(
  z.object({
    fileName: z.string(),
    size: z.number().int(),
    format: z.string().nullable().describe('Extension of the detected format, e.g. docx'),
    mimeType: z.string(),
    category: z.string(),
    confidence: z.number().min(0).max(1),
    method: z.enum(['container', 'magic', 'text', 'extension', 'none']),
    route: z.string().nullable().describe('The conversion route auto-to-pdf would use'),
    supported: z.boolean(),
  }),
);

/** POST /conversion/detect: what auto-to-pdf would detect, read from the bytes. */
export const conversionDetectRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/detect',
    {
      ...app.processingGuard('conversion'),
      schema: {
        tags: ['conversion'],
        security: [{ apiKey: [] }],
        summary: 'Detect the format of an uploaded file (magic numbers, zip contents, text sniffing) with a confidence',
        consumes: ['multipart/form-data'],
        response: {
          200: ZDetectResponse,
          400: ZErrorResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          413: ZErrorResponse,
          415: ZErrorResponse,
          429: ZErrorResponse,
        },
      },
    },
    async (request) => {
      const limits = request.apiKey!.limits;
      const upload = await receiveUpload(request, {
        maxFileSize: limits.maxFileSize,
        maxFiles: 1,
        fileFields: ['file'],
      });
      const file = upload.files[0];
      if (!file) throw new AppError('INVALID_INPUT', 'Send the document in a multipart field named "file"');
      request.usage.bytesIn = file.size;
      const found = await detectFormat(file.path, file.size, file.filename);
      return { success: true as const, data: { fileName: file.filename, size: file.size, ...found } };
    },
  );
};
