import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ZFileResultResponse,
  ZPipelineFields,
  parsePipelineStages,
  stageLabel,
  type PipelineStage,
} from '@docflow/contracts';
import { AppError } from '../../../lib/app-error';
import { outputName, sendFile } from '../../../lib/send-result';
import type { UploadedFile } from '../../../lib/uploads';
import { convertUpload, type SingleFileConversion } from '../../../core/convert/convert-source';
import { preparePdf, type OutputFile } from '../../../core/pdf/operations';
import { toAppError } from '../../../plugins/error-handler';
import type { StageUsage } from '../../../plugins/processing-guard';
import { registerProcessingRoute } from '../../../plugins/processing-routes';
import { consumeExtraCalls } from '../../../plugins/rate-limits';
import { pdfSteps, type PdfStep, type PdfStepPath } from '../pdf/steps';

/** A stage's failure as the stage's own answer (same code and status), its message and details naming the stage. */
function stageError(stage: Pick<PipelineStage, 'index' | 'op'>, err: unknown): unknown {
  const e = toAppError(err);
  if (e.code === 'CLIENT_CLOSED_REQUEST') return err;
  const details = e.details && typeof e.details === 'object' && !Array.isArray(e.details) ? e.details : {};
  return new AppError(e.code, `${stageLabel(stage.index, stage.op)}: ${e.message}`, {
    details: { ...details, stage: stage.index, op: stage.op },
    cause: err,
    headers: e.headers,
  });
}

/**
 * POST /pipeline: one upload through ordered stages, each the operation of its endpoint (the conversion routes'
 * convertUpload, the PDF routes' steps), intermediate files in the request's workspace, one answer.
 *
 * Before any work: every stage's fields pass its endpoint's schema and checks, every stage's endpoint group is in the
 * key's plan (403 naming the stage), and the call counts as one call per stage against the key's limits (429 when
 * they do not all fit; the route's guard counted the first). Each stage is metered as its endpoint: one usage event
 * per stage, instead of one for /pipeline (a call refused before its stages were counted is metered as /pipeline).
 */
/** The stages as sent: parsed, each one's group in the key's plan, each one's fields checked as its route would. */
function checkedStages(request: FastifyRequest, fields: { stages: string }) {
  const parsed = parsePipelineStages(fields.stages);
  if (!parsed.ok) {
    const { stage, op, field, message } = parsed.issue;
    throw new AppError('INVALID_INPUT', message, {
      details: stage === null ? { field: 'stages' } : { stage, op, field },
    });
  }
  const stages = parsed.stages;
  const allowed = request.apiKey?.allowedEndpoints ?? [];
  for (const s of stages) {
    if (!allowed.includes(s.group)) {
      throw new AppError(
        'ENDPOINT_NOT_ALLOWED',
        `${stageLabel(s.index, s.op)}: the ${s.group} endpoints are not included in this key's plan`,
        { details: { stage: s.index, op: s.op, group: s.group, allowedEndpoints: allowed } },
      );
    }
  }
  const steps = stages.map((s) => (s.kind === 'pdf' ? (pdfSteps[s.op as PdfStepPath] as PdfStep) : null));
  for (const s of stages) {
    try {
      steps[s.index]?.check?.(s.fields, {});
    } catch (err) {
      throw stageError(s, err);
    }
  }
  return { stages, steps };
}

export async function pipelineRoutes(app: FastifyInstance): Promise<void> {
  registerProcessingRoute(app, {
    path: '/pipeline',
    group: 'pdf',
    noun: 'document',
    summary:
      'One upload through several stages in one call: a conversion to PDF, then PDF operations (watermark, page numbers, protect…)',
    description:
      'Each stage is `{"op": <endpoint>, ...that endpoint\'s fields}`, checked with the endpoint\'s own schema before any work. ' +
      "The key needs the pdf group and every stage's group; the call counts as one call per stage against the limits, and each " +
      'stage is metered as its endpoint. A failing stage answers its own error, the message starting with `stages[i] (op):` ' +
      "and `details` carrying `stage` and `op`. The answer is the last stage's PDF (X-Pipeline-Stages, X-Pipeline-Stage-Ms).",
    fields: ZPipelineFields,
    files: { field: 'file', min: 1, max: 1, description: 'The document: a PDF, or a file the first stage converts' },
    response: ZFileResultResponse.describe(
      'The final PDF itself with Content-Disposition; with Accept: application/json, this JSON',
    ),
    async precheck({ request, reply, fields }) {
      const { stages } = checkedStages(request, fields);
      // N stages are N calls, all counted when the call is admitted (a job's later run counts nothing more).
      if (!request.jobRun) await consumeExtraCalls(app.rateLimits, request, reply, stages.length - 1);
    },
    async handler({ request, reply, fields, files, job }) {
      const { stages, steps } = checkedStages(request, fields);

      const input = files[0]!;
      const usage: StageUsage[] = stages.map((s) => ({
        endpoint: s.op,
        group: s.group,
        statusCode: null,
        errorCode: null,
        durationMs: 0,
        bytesIn: 0,
        bytesOut: 0,
        pages: null,
      }));
      if (request.apiKeyState) request.apiKeyState.stages = usage;

      let current: UploadedFile = input;
      let last: OutputFile | null = null;
      for (const s of stages) {
        const u = usage[s.index]!;
        const started = performance.now();
        u.bytesIn = current.size;
        try {
          let out: OutputFile;
          const step = steps[s.index];
          if (!step) {
            out = await convertUpload(
              job,
              current,
              s.op.replace(/^\/conversion\//, '') as SingleFileConversion,
              s.fields,
            );
          } else {
            const label = s.index === 0 ? `"${input.filename}"` : `${stageLabel(s.index, s.op)} input`;
            const pdf = await preparePdf(job, current, { label, password: s.fields.password as string | undefined });
            u.pages = pdf.pages;
            out = await step.run(job, pdf, s.fields, {});
          }
          u.pages = out.pages ?? u.pages;
          u.bytesOut = (await stat(out.path)).size;
          u.statusCode = 200;
          current = {
            field: 'file',
            filename: input.filename,
            mimetype: 'application/pdf',
            path: out.path,
            size: u.bytesOut,
          };
          last = out;
        } catch (err) {
          const e = toAppError(err);
          u.statusCode = e.statusCode;
          u.errorCode = e.code;
          throw stageError(s, err);
        } finally {
          u.durationMs = performance.now() - started;
        }
      }
      request.usage.pages = last!.pages;
      return sendFile(
        request,
        reply,
        {
          path: last!.path,
          fileName: outputName(input.filename, last!.name, 'pdf').replace(/-converted\.pdf$/, '.pdf'),
          mimeType: 'application/pdf',
          pages: last!.pages,
        },
        {
          'X-Pipeline-Stages': stages.length,
          'X-Pipeline-Stage-Ms': usage.map((u) => (u.durationMs ?? 0).toFixed(1)).join(','),
        },
      );
    },
  });
}
