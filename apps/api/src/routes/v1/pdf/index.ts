import type { FastifyInstance } from 'fastify';
import { pdfEndpoints } from '../../../endpoints/pdf/index';
import { signatureEndpoints, type StoredCertificates } from '../../../endpoints/signatures/index';
import { openSigningCertificate } from '../../../services/signing-certificates/index';
import { registerProcessingRoute } from '../processing-door';

/** What the signature endpoints and the pipeline's signing stage need of this server: its settings, its accounts' certificates. */
export function signatureWiring(app: FastifyInstance) {
  const settings = { ...app.config.signatures, allowList: app.config.outbound.allowList };
  const stored: StoredCertificates = (userId, id) => openSigningCertificate(app.db, app.certificateSealer, userId, id);
  return { settings, stored };
}

export async function pdfRoutes(app: FastifyInstance): Promise<void> {
  for (const endpoint of pdfEndpoints) registerProcessingRoute(app, endpoint);
  const { settings, stored } = signatureWiring(app);
  for (const endpoint of signatureEndpoints(settings, stored)) registerProcessingRoute(app, endpoint);
}
