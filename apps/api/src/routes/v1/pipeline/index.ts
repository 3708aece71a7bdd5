import type { FastifyInstance } from 'fastify';
import { pipelineEndpointWith } from '../../../endpoints/pipeline/index';
import { signStage, timestampStage } from '../../../endpoints/signatures/index';
import { signatureWiring } from '../pdf/index';
import { registerProcessingRoute } from '../processing-door';

export async function pipelineRoutes(app: FastifyInstance): Promise<void> {
  const { settings, stored } = signatureWiring(app);
  registerProcessingRoute(
    app,
    pipelineEndpointWith({
      '/pdf/sign': signStage(settings, stored),
      '/pdf/timestamp': timestampStage(settings),
    }),
  );
}
