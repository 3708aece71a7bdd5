import { z } from 'zod';
import { stagePaths, type TStagePath } from './endpoints';

/**
 * POST /pipeline: one upload through an ordered list of stages in one call. A stage is `{ "op": <endpoint path>,
 * ...that endpoint's own fields }`, validated with the same schema as the endpoint (pipeline-stages.ts). The first
 * stage may be a conversion to PDF; every other stage is a PDF-to-PDF operation.
 */

/** Conversions that take one uploaded file: only the first stage (the catalogue marks them). */
export const pipelineConversionOps = stagePaths('first');

/** PDF-to-PDF operations: any number, in any order (the catalogue marks them). */
export const pipelinePdfOps = stagePaths('pdf');

/** Operations that end a pipeline (signing with a stored certificate, time-stamping): only each other may follow. */
export const pipelineLastOps = stagePaths('last');

export const pipelineOps = [...pipelineConversionOps, ...pipelinePdfOps, ...pipelineLastOps];
export type TPipelineOp = TStagePath<'first' | 'pdf' | 'last'>;

export const MAX_PIPELINE_STAGES = 10;

/** One stage as sent: the endpoint and its fields (JSON strings, numbers and booleans, as the endpoint's form takes). */
export const ZPipelineStage = z
  .object({
    op: z.string().describe(`The endpoint this stage runs, as its path under /api/v1: ${pipelineOps.join(', ')}`),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean()]));
export type TPipelineStage = z.infer<typeof ZPipelineStage>;

export const ZPipelineStages = z.array(ZPipelineStage).min(1).max(MAX_PIPELINE_STAGES);

export const ZPipelineFields = z.object({
  stages: z
    .string()
    .min(1)
    .max(100_000)
    .describe(
      `The stages, in order, as a JSON array (1 to ${MAX_PIPELINE_STAGES}) of {"op": <endpoint>, ...its fields}, e.g. ` +
        '[{"op":"/conversion/word-to-pdf"},{"op":"/pdf/watermark","text":"DRAFT"},{"op":"/pdf/page-numbers"},' +
        '{"op":"/pdf/protect","userPassword":"s3cret"}]. Each stage takes the fields of its endpoint, checked by the same ' +
        'schema, all before any work. The first stage may be a conversion to PDF (' +
        pipelineConversionOps.join(', ') +
        '); the others are PDF operations (' +
        pipelinePdfOps.join(', ') +
        '); the pipeline may end with ' +
        pipelineLastOps.join(', ') +
        ' (signing takes the `certificateId` of a certificate stored for the account), which only each other may follow. A watermark stage takes `text` (no image). A stage after /pdf/protect needs its `password`.',
    ),
});
export type TPipelineFields = z.infer<typeof ZPipelineFields>;
