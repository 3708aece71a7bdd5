import { tr } from '@/i18n/localised';

/**
 * A field's problem as zod describes it, checked in the browser or sent back by the API in `details.fields` (the
 * issue's code and bounds beside its message, apps/api lib/field-issue.ts).
 */
export interface FieldIssueLike {
  code?: string;
  message?: string;
  missing?: boolean;
  /** Zod's own issues keep the value when asked (reportInput): undefined means nothing was given. */
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  values?: readonly unknown[];
  divisor?: number | bigint;
  expected?: string;
}

const n = (v: number | bigint | undefined) => (typeof v === 'bigint' ? Number(v) : v);
const sized = new Set(['array', 'set', 'file', 'map']);

/** The texts whose words a zod issue's code and bounds give; undefined for a rule of the schema's own (a pattern, a refinement). */
function byCode(issue: FieldIssueLike): string | undefined {
  const t = (key: string, params?: Record<string, unknown>) => tr(`validationMessages.${key}`, params);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.missing || ('input' in issue && issue.input === undefined)) return t('required');
      if (issue.expected === 'number' || issue.expected === 'int') return t('number');
      return t('issues.invalid');
    case 'too_small': {
      const min = n(issue.minimum);
      if (min === undefined) return t('issues.invalid');
      if (issue.origin === 'string') return min <= 1 ? t('required') : t('issues.tooShort', { n: min });
      if (issue.origin && sized.has(issue.origin)) return t('issues.atLeastItems', { n: min });
      return issue.inclusive === false ? t('issues.greaterThan', { n: min }) : t('min', { n: min });
    }
    case 'too_big': {
      const max = n(issue.maximum);
      if (max === undefined) return t('issues.invalid');
      if (issue.origin === 'string') return t('issues.tooLong', { n: max });
      if (issue.origin && sized.has(issue.origin)) return t('issues.atMostItems', { n: max });
      return issue.inclusive === false ? t('issues.lessThan', { n: max }) : t('max', { n: max });
    }
    case 'not_multiple_of':
      return t('step', { n: n(issue.divisor) });
    case 'invalid_value':
      return issue.values?.length
        ? t('issues.oneOf', { values: issue.values.map((v) => String(v)).join(', ') })
        : t('issues.invalid');
    case 'invalid_format':
      if (issue.format === 'email') return t('email');
      if (issue.format === 'url') return t('url');
      if (issue.format === 'datetime' || issue.format === 'date') return t('issues.dateTime');
      return undefined;
    case 'unrecognized_keys':
      return t('issues.unknownField');
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return t('issues.invalid');
    default:
      return undefined;
  }
}

/**
 * A field's problem in the interface's language: from the catalogue by its zod code and bounds; a rule the schema
 * words itself (a pattern, a refinement) keeps `fallback`, the server's message (given in the reader's language by
 * Accept-Language), else the catalogue's general words.
 */
export function issueMessage(issue: FieldIssueLike, fallback?: string): string {
  return byCode(issue) ?? fallback ?? tr('validationMessages.issues.format');
}

/** Whether the catalogue words this issue itself (not a rule of the schema's own). */
export const wordedByCode = (issue: FieldIssueLike): boolean => byCode(issue) !== undefined;
