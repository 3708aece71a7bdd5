import type { FastifyInstance } from 'fastify';
import { ZErrorResponse, ZOcrLanguagesResponse, catalogueEntry } from '@docflow/contracts';
import { installedLanguages } from '../../../core/operations/ocr/languages';
import { ocrEndpoints } from '../../../endpoints/ocr/index';
import { sendData } from '../../../lib/send-result';
import { registerProcessingRoute } from '../processing-door';

export async function ocrRoutes(app: FastifyInstance): Promise<void> {
  for (const endpoint of ocrEndpoints) registerProcessingRoute(app, endpoint);

  app.get(
    '/languages',
    {
      ...app.processingGuard('ocr'),
      schema: {
        tags: ['ocr'],
        security: [{ apiKey: [] }],
        summary: catalogueEntry('/ocr/languages').summary,
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
