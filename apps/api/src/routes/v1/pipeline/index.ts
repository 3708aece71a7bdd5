import type { FastifyInstance } from 'fastify';
import { pipelineEndpoint } from '../../../endpoints/pipeline/index';
import { registerProcessingRoute } from '../processing-door';

export async function pipelineRoutes(app: FastifyInstance): Promise<void> {
  registerProcessingRoute(app, pipelineEndpoint);
}
