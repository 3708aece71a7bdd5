import type { FastifyInstance } from 'fastify';
import { ZConversionFormatsResponse, ZErrorResponse, catalogueEntry } from '@docflow/contracts';
import { formats } from '../../../core/operations/convert/detect-format';
import { routeFormats, routeOperation, type ConversionRoute } from '../../../core/operations/convert/sources';
import { conversionEndpoints } from '../../../endpoints/conversion/index';
import { registerProcessingRoute } from '../processing-door';

export async function conversionRoutes(app: FastifyInstance): Promise<void> {
  for (const endpoint of conversionEndpoints({ allowPrivate: app.config.URL_TO_PDF_ALLOW_PRIVATE })) {
    registerProcessingRoute(app, endpoint);
  }

  app.get(
    '/formats',
    {
      ...app.processingGuard('conversion'),
      schema: {
        tags: ['conversion'],
        security: [{ apiKey: [] }],
        summary: catalogueEntry('/conversion/formats').summary,
        response: { 200: ZConversionFormatsResponse, 401: ZErrorResponse, 403: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async () => {
      const list = (Object.keys(routeFormats) as ConversionRoute[]).flatMap((route) =>
        routeFormats[route].map((format) => ({
          format,
          mimeType: formats[format]?.mime ?? 'application/octet-stream',
          category: formats[format]?.category ?? 'other',
          route: `/api/v1/conversion/${route}`,
          engine: routeOperation[route],
          available: app.engines.has(routeOperation[route]),
        })),
      );
      return {
        success: true as const,
        data: {
          formats: list,
          routes: (Object.keys(routeFormats) as ConversionRoute[]).map((route) => ({
            route: `/api/v1/conversion/${route}`,
            formats: [...routeFormats[route]],
          })),
        },
      };
    },
  );
}
