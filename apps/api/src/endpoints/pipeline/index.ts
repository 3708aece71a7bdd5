import {
  ZFileResultResponse,
  parsePipelineStages,
  stageLabel,
  type PipelineStage,
  type TEndpointGroup,
  type TStagePath,
} from '@docflow/contracts';
import { AppError } from '../../lib/app-error';
import { outputName } from '../../lib/send-result';
import { fileOutcome } from '../../lib/outcome';
import type { UploadedFile } from '../../lib/uploads';
import { convertUpload, type SingleFileConversion } from '../../core/operations/convert/convert-source';
import { preparePdf } from '../../core/operations/pdf/job';
import { runSteps, type Step, type StepFile } from '../../core/operations/run-steps';
import { callError } from '../call-errors';
import { pdfSteps, type PdfStep, type PdfStepPath } from '../pdf/steps';
import { defineEndpoint, type StageUsage } from '../processing-endpoint';
import type { LastStage } from '../signatures/index';

/** A stage's failure as the stage's own answer (same code and status), its message and details naming the stage. */
function stageError(stage: Pick<PipelineStage, 'index' | 'op'>, err: unknown): unknown {
  const e = callError(err);
  if (e.code === 'CLIENT_CLOSED_REQUEST') return err;
  const details = e.details && typeof e.details === 'object' && !Array.isArray(e.details) ? e.details : {};
  return new AppError(e.code, `${stageLabel(stage.index, stage.op)}: ${e.message}`, {
    details: { ...details, stage: stage.index, op: stage.op },
    cause: err,
    headers: e.headers,
  });
}

/** A stage's output as the upload a last stage takes: a PDF under the upload's name. */
const asUpload = (f: StepFile): UploadedFile => ({
  field: 'file',
  filename: f.filename,
  mimetype: 'application/pdf',
  path: f.path,
  size: f.size,
});

/**
 * POST /pipeline: one upload through ordered stages, each the operation of its endpoint (the conversion routes'
 * convertUpload, the PDF routes' steps), chained by runSteps in the request's workspace, one answer.
 *
 * Before any work: every stage's fields pass its endpoint's schema and checks, every stage's endpoint group is in the
 * key's plan (403 naming the stage), and the call counts as one call per stage against the key's limits (429 when
 * they do not all fit; the route's guard counted the first). Each stage is metered as its endpoint: one usage event
 * per stage, instead of one for /pipeline (a call refused before its stages were counted is metered as /pipeline).
 */
/** The stages as sent: parsed, each one's group in the key's plan, each one's fields checked as its route would. */
function checkedStages(allowed: readonly TEndpointGroup[], fields: { stages: string }) {
  const parsed = parsePipelineStages(fields.stages);
  if (!parsed.ok) {
    const { stage, op, field, message } = parsed.issue;
    throw new AppError('INVALID_INPUT', message, {
      details: stage === null ? { field: 'stages' } : { stage, op, field },
    });
  }
  const stages = parsed.stages;
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

/** The stages that end a pipeline, by path (a signature needs the server's settings and the account's certificates). */
export type LastStages = Partial<Record<TStagePath<'last'>, LastStage>>;

/** POST /pipeline as an endpoint, with the last stages this server runs (none: such a stage is refused). */
export const pipelineEndpointWith = (lastStages: LastStages = {}) =>
  defineEndpoint('/pipeline', {
    noun: 'document',
    description:
      'Each stage is `{"op": <endpoint>, ...that endpoint\'s fields}`, checked with the endpoint\'s own schema before any work. ' +
      "The key needs the pdf group and every stage's group; the call counts as one call per stage against the limits, and each " +
      'stage is metered as its endpoint. A failing stage answers its own error, the message starting with `stages[i] (op):` ' +
      "and `details` carrying `stage` and `op`. The answer is the last stage's PDF (X-Pipeline-Stages, X-Pipeline-Stage-Ms).",
    files: { description: 'The document: a PDF, or a file the first stage converts' },
    response: ZFileResultResponse.describe(
      'The final PDF itself with Content-Disposition; with Accept: application/json, this JSON',
    ),
    async admit({ fields, allowed }) {
      // N stages are N calls, all counted when the call is admitted (a job's later run counts nothing more).
      return { extraCalls: checkedStages(allowed, fields).stages.length - 1 };
    },
    async run({ meter, allowed, fields, files, job, caller }) {
      const { stages, steps } = checkedStages(allowed, fields);

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
      meter.stages = usage;

      const stageSteps: Step[] = stages.map((s) => ({
        label: stageLabel(s.index, s.op),
        async run(job, current, notes) {
          const step = steps[s.index];
          const label = s.index === 0 ? `"${input.filename}"` : `${stageLabel(s.index, s.op)} input`;
          if (s.kind === 'last') {
            const final = lastStages[s.op as TStagePath<'last'>];
            if (!final) throw new AppError('INVALID_INPUT', `${s.op} is not available as a stage on this server`);
            return final.run({ job, caller, label }, s.index === 0 ? input : asUpload(current), s.fields);
          }
          if (!step) {
            return convertUpload(job, current, s.op.replace(/^\/conversion\//, '') as SingleFileConversion, s.fields);
          }
          const pdf = await preparePdf(job, current, { label, password: s.fields.password as string | undefined });
          notes.pages = pdf.pages;
          return step.run(job, pdf, s.fields, {});
        },
      }));
      const { output: last } = await runSteps(job, input, stageSteps, {
        wrapError: (err, _step, index) => stageError(stages[index]!, err),
        measured(m, index) {
          const u = usage[index]!;
          u.durationMs = m.durationMs;
          u.bytesIn = m.bytesIn;
          u.pages = m.pages;
          if (m.error === undefined) {
            u.bytesOut = m.bytesOut ?? 0;
            u.statusCode = 200;
          } else {
            const e = callError(m.error);
            u.statusCode = e.statusCode;
            u.errorCode = e.code;
          }
        },
      });
      meter.pages = last.pages;
      return fileOutcome(
        {
          path: last.path,
          fileName: outputName(input.filename, last.name, 'pdf').replace(/-converted\.pdf$/, '.pdf'),
          mimeType: 'application/pdf',
          pages: last.pages,
        },
        {
          'X-Pipeline-Stages': stages.length,
          'X-Pipeline-Stage-Ms': usage.map((u) => (u.durationMs ?? 0).toFixed(1)).join(','),
        },
      );
    },
  });

/** The pipeline without last stages (the definitions' tests; a server registers its own with pipelineEndpointWith). */
export const pipelineEndpoint = pipelineEndpointWith();
