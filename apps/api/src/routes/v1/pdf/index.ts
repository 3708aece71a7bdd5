import type { FastifyInstance } from 'fastify';
import { pdfEndpoints } from '../../../endpoints/pdf/index';
import { signatureEndpoints } from '../../../endpoints/signatures/index';
import { openSigningCertificate } from '../../../services/signing-certificates/index';
import { registerProcessingRoute } from '../processing-door';

export async function pdfRoutes(app: FastifyInstance): Promise<void> {
  for (const endpoint of pdfEndpoints) registerProcessingRoute(app, endpoint);
  const settings = { ...app.config.signatures, allowList: app.config.outbound.allowList };
  const stored = (userId: string, id: string) => openSigningCertificate(app.db, app.certificateSealer, userId, id);
  for (const endpoint of signatureEndpoints(settings, stored)) registerProcessingRoute(app, endpoint);
}
