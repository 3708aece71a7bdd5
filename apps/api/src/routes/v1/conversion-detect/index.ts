import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAsyncFields, ZErrorResponse, ZJobAdmittedResponse, ZUploadFile, successEnvelope } from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { receiveUpload } from '../../../lib/uploads';
import { detectFormat } from '../../../core/convert/detect-format';
import { multipartValidator } from '../../../plugins/processing-routes';

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
      // The form is read from the multipart parts by the handler; the body schema documents it.
      validatorCompiler: multipartValidator,
      schema: {
        tags: ['conversion'],
        security: [{ apiKey: [] }],
        summary: 'Detect the format of an uploaded file (magic numbers, zip contents, text sniffing) with a confidence',
        consumes: ['multipart/form-data'],
        body: z.object({ file: ZUploadFile.describe('The file to identify') }).extend(ZAsyncFields.shape),
        response: {
          200: ZDetectResponse,
          202: ZJobAdmittedResponse,
          400: ZErrorResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          413: ZErrorResponse,
          415: ZErrorResponse,
          429: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const limits = request.apiKey!.limits;
      const upload = await receiveUpload(request, {
        maxFileSize: limits.maxFileSize,
        maxFiles: 1,
        fileFields: ['file'],
      });
      const file = upload.files[0];
      if (!file) throw new AppError('INVALID_INPUT', 'Send the document in a multipart field named "file"');
      request.usage.bytesIn = file.size;
      if (!request.jobRun && app.jobs.wanted(request, upload.fields))
        return app.jobs.admit(request, reply, upload.files, upload.fields);
      if (!request.jobRun && app.jobs.remoteOnly)
        return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      const found = await detectFormat(file.path, file.size, file.filename);
      return { success: true as const, data: { fileName: file.filename, size: file.size, ...found } };
    },
  );
};
