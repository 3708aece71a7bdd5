import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_STORED_CERTIFICATES,
  ZErrorResponse,
  ZIdParam,
  ZMessageResponse,
  ZSigningCertificateResponse,
  ZSigningCertificatesResponse,
  ZStoreSigningCertificateRequest,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import {
  deleteSigningCertificate,
  listSigningCertificates,
  storeSigningCertificate,
} from '../../../services/signing-certificates/index';

/**
 * The signed-in user's stored signing certificates (dashboard: Settings): POST /pdf/sign takes one by its id. The
 * key and its password are never given back; the list describes each certificate.
 */
export const signingCertificateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', authenticate);
  const common = { tags: ['pdf'], security: [{ accessToken: [] }] };
  app.get(
    '/',
    {
      schema: {
        ...common,
        summary: 'My stored signing certificates',
        response: { 200: ZSigningCertificatesResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        certificates: await listSigningCertificates(app.db, currentUser(request).id),
        max: MAX_STORED_CERTIFICATES,
      },
    }),
  );
  app.post(
    '/',
    {
      schema: {
        ...common,
        summary: 'Store a signing certificate (PKCS#12 in base64, with its password), encrypted at rest',
        body: ZStoreSigningCertificateRequest,
        response: { 201: ZSigningCertificateResponse, 401: ZErrorResponse, 422: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const certificate = await storeSigningCertificate(
        app.db,
        app.certificateSealer,
        currentUser(request).id,
        request.body,
      );
      return reply.code(201).send({ success: true as const, data: { certificate } });
    },
  );
  app.delete(
    '/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a stored signing certificate (its key is erased)',
        params: ZIdParam,
        response: { 200: ZMessageResponse, 401: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request) => {
      await deleteSigningCertificate(app.db, currentUser(request).id, request.params.id);
      return { success: true as const, message: 'Signing certificate deleted' };
    },
  );
};
