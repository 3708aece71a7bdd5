import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorResponse, ZLegalDocumentResponse, ZLegalQuery, legalDocuments } from '@docflow/contracts';
import { readLegalDocument } from '../../../services/legal/read-legal-document';

/** The Terms of Service and the Privacy Policy, as the operator wrote them (no authentication). */
export const legalRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const document of legalDocuments) {
    app.get(
      `/${document}`,
      {
        schema: {
          tags: ['legal'],
          summary:
            document === 'terms'
              ? 'Terms of Service: DATA_DIR/terms.md, else a neutral default'
              : 'Privacy Policy: DATA_DIR/privacy.md, else a neutral default',
          querystring: ZLegalQuery,
          response: { 200: ZLegalDocumentResponse, 422: ZErrorResponse },
        },
      },
      async (request) => ({
        success: true as const,
        data: { legal: await readLegalDocument(app.config.dataDir, document, request.query.lang) },
      }),
    );
  }
};
