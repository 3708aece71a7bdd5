/**
 * One field's problem as an error answer carries it in `details.fields`: the field's path and a message, plus the
 * zod issue's code and bounds, so a client can word it in its own language (the dashboard does, from its catalogues)
 * and name the field beside its control rather than in a "field: message" sentence.
 */
export interface FieldIssue {
  field: string;
  message: string;
  /** The zod issue code: invalid_type, too_small, too_big, invalid_format, invalid_value, not_multiple_of, custom… */
  code?: string;
  /** invalid_type with no value at all: the field is missing. */
  missing?: true;
  /** too_small / too_big: what is measured (string, number, array, file…) and the bound. */
  origin?: string;
  minimum?: number;
  maximum?: number;
  /** false when the bound itself is refused (positive(), lt()). */
  inclusive?: boolean;
  /** invalid_format: email, url, datetime, regex… */
  format?: string;
  /** invalid_value: the values taken. */
  values?: Array<string | number | boolean | null>;
  /** not_multiple_of */
  divisor?: number;
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

/** A zod issue (or fastify-type-provider-zod's rendering of one: its code and the rest as params) as a FieldIssue. */
export function fieldIssue(field: string, message: string, code: string | undefined, params: object = {}): FieldIssue {
  const p = params as Record<string, unknown>;
  const out: FieldIssue = { field, message };
  if (!code) return out;
  out.code = code;
  if (code === 'invalid_type' && (('input' in p && p.input === undefined) || /received undefined$/.test(message)))
    out.missing = true;
  if (typeof p.origin === 'string') out.origin = p.origin;
  const min = num(p.minimum);
  const max = num(p.maximum);
  if (min !== undefined) out.minimum = min;
  if (max !== undefined) out.maximum = max;
  if (p.inclusive === false) out.inclusive = false;
  if (typeof p.format === 'string') out.format = p.format;
  if (Array.isArray(p.values))
    out.values = p.values.filter(
      (v): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v),
    );
  const divisor = num(p.divisor);
  if (divisor !== undefined) out.divisor = divisor;
  return out;
}
