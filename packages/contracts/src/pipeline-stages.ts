import type { z } from 'zod';
import type { TEndpointGroup } from './common';
import { catalogueEntry } from './catalogue';
import {
  MAX_PIPELINE_STAGES,
  pipelineConversionOps,
  pipelineLastOps,
  pipelineOps,
  ZPipelineStage,
  type TPipelineOp,
} from './pipeline';

/** A stage whose fields passed its endpoint's schema. */
export interface PipelineStage {
  index: number;
  op: TPipelineOp;
  group: TEndpointGroup;
  /** last: an operation that must end the pipeline (a signature). */
  kind: 'conversion' | 'pdf' | 'last';
  /** The endpoint schema's output. */
  fields: Record<string, unknown>;
}

/** Why the stages were refused: `stage` is null when the list itself is wrong. */
export interface PipelineStagesIssue {
  stage: number | null;
  op: string | null;
  field: string | null;
  message: string;
}

export type PipelineStagesResult = { ok: true; stages: PipelineStage[] } | { ok: false; issue: PipelineStagesIssue };

const isOp = (op: string): op is TPipelineOp => (pipelineOps as readonly string[]).includes(op);

/** `stages[2] (/pdf/protect): userPassword: …` — the label every stage message starts with. */
export const stageLabel = (index: number, op: string | null) => `stages[${index}]${op ? ` (${op})` : ''}`;

/**
 * The `stages` field of POST /pipeline checked, every stage against its own endpoint's schema from the catalogue
 * (the one the endpoint validates with); the first issue found is returned, naming the stage and the field.
 */
export function parsePipelineStages(json: string): PipelineStagesResult {
  const fail = (stage: number | null, op: string | null, field: string | null, message: string) => ({
    ok: false as const,
    issue: {
      stage,
      op,
      field,
      message:
        stage === null ? `stages: ${message}` : `${stageLabel(stage, op)}: ${field ? `${field}: ` : ''}${message}`,
    },
  });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail(null, null, null, 'not valid JSON; send an array such as [{"op":"/pdf/rotate","angle":90}]');
  }
  if (!Array.isArray(value)) return fail(null, null, null, 'must be a JSON array of stages');
  if (value.length < 1 || value.length > MAX_PIPELINE_STAGES)
    return fail(null, null, null, `give between 1 and ${MAX_PIPELINE_STAGES} stages (got ${value.length})`);
  const stages: PipelineStage[] = [];
  for (const [i, raw] of value.entries()) {
    const shape = ZPipelineStage.safeParse(raw);
    if (!shape.success) {
      const first = shape.error.issues[0]!;
      const op = typeof (raw as { op?: unknown })?.op === 'string' ? (raw as { op: string }).op : null;
      const field = first.path.join('.') || null;
      return fail(i, op, field, field ? first.message : 'must be an object {"op": <endpoint>, ...its fields}');
    }
    const { op: given, ...fields } = shape.data;
    const op = given.replace(/^\/api\/v1(?=\/)/, '');
    if (!isOp(op)) {
      return fail(i, given, 'op', `not an operation a pipeline runs (valid: ${pipelineOps.join(', ')})`);
    }
    const kind = (pipelineConversionOps as readonly string[]).includes(op)
      ? 'conversion'
      : (pipelineLastOps as readonly string[]).includes(op)
        ? 'last'
        : 'pdf';
    if (kind === 'conversion' && i > 0)
      return fail(i, op, 'op', 'a conversion takes the uploaded file: only the first stage may be one');
    const opOf = (s: unknown) =>
      typeof (s as { op?: unknown })?.op === 'string' ? (s as { op: string }).op.replace(/^\/api\/v1(?=\/)/, '') : '';
    if (kind === 'last' && value.slice(i + 1).some((s) => !(pipelineLastOps as readonly string[]).includes(opOf(s))))
      return fail(
        i,
        op,
        'op',
        `a signature or time-stamp ends the pipeline: only ${pipelineLastOps.join(' or ')} may follow it (any other stage would change the signed bytes)`,
      );
    const entry = catalogueEntry(op);
    const schema = entry.fields as z.ZodObject;
    const unknown = Object.keys(fields).find((k) => !(k in schema.shape));
    if (unknown !== undefined)
      return fail(i, op, unknown, `unknown field (valid: op, ${Object.keys(schema.shape).join(', ')})`);
    const parsed = schema.safeParse(fields);
    if (!parsed.success) {
      const first = parsed.error.issues[0]!;
      return fail(i, op, first.path.join('.') || null, first.message);
    }
    stages.push({ index: i, op, group: entry.group as TEndpointGroup, kind, fields: parsed.data });
  }
  return { ok: true, stages };
}
