import type { FastifyInstance } from 'fastify';
import { pdfEndpoints } from '../../../endpoints/pdf/index';
import { signatureEndpoints } from '../../../endpoints/signatures/index';
import { registerProcessingRoute } from '../processing-door';

export async function pdfRoutes(app: FastifyInstance): Promise<void> {
  for (const endpoint of pdfEndpoints) registerProcessingRoute(app, endpoint);
  for (const endpoint of signatureEndpoints({ ...app.config.signatures, allowList: app.config.outbound.allowList }))
    registerProcessingRoute(app, endpoint);
}
