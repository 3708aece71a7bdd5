import type { PlaygroundEndpoint, PlaygroundField } from '../config/endpoints';
import en from '@/i18n/locales/en.json';
import { localised, tr } from '@/i18n/localised';
import { issueMessage, wordedByCode, type FieldIssueLike } from '@/lib/validation/issue-message';

/** Form state: text-like fields hold strings, checkboxes booleans; files are kept apart. */
export type FieldValues = Record<string, string | boolean>;
export type FieldFiles = Record<string, File[]>;

export const isFileField = (f: PlaygroundField) => f.type === 'file' || f.type === 'files';

/** The values a fresh form starts with: each field's default, else empty. */
export function initialValues(endpoint: PlaygroundEndpoint): FieldValues {
  const values: FieldValues = {};
  for (const f of endpoint.fields) {
    if (isFileField(f)) continue;
    values[f.name] = f.type === 'checkbox' ? f.default === true : f.default === undefined ? '' : String(f.default);
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isAbsoluteUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return Boolean(u.protocol && u.host);
  } catch {
    return false;
  }
}

/** Floating-point-safe "value is min + k·step". */
function onStep(value: number, step: number, base: number): boolean {
  const k = (value - base) / step;
  return Math.abs(k - Math.round(k)) < 1e-9;
}

const texts = localised(en.validationMessages, 'validationMessages');

export const validationMessages = {
  get required() {
    return texts.required;
  },
  get apiKey() {
    return texts.apiKey;
  },
  get number() {
    return texts.number;
  },
  min: (n: number) => tr('validationMessages.min', { n }),
  max: (n: number) => tr('validationMessages.max', { n }),
  step: (n: number) => tr('validationMessages.step', { n }),
  get url() {
    return texts.url;
  },
  get email() {
    return texts.email;
  },
  minFiles: (n: number) => tr('validationMessages.minFiles', { n }),
  maxFiles: (n: number) => tr('validationMessages.maxFiles', { n }),
};

/**
 * The problems the server's own schema (the contracts one it validates with) finds in what would be sent, worded
 * from the catalogues by their zod code; a rule the schema words itself (a pattern, a refinement) is left to the
 * server, whose answer says it in the reader's language beside the field.
 */
function schemaProblems(endpoint: PlaygroundEndpoint, values: FieldValues): Record<string, string> {
  const plan = planCall(endpoint, { apiBase: '', apiKey: '', values, files: {} });
  const sent: Record<string, unknown> = plan.json ?? Object.fromEntries(plan.fields);
  const result = endpoint.schema.safeParse(sent);
  const out: Record<string, string> = {};
  if (result.success) return out;
  const names = new Set(endpoint.fields.map((f) => f.name));
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!names.has(field) || field in out) continue;
    const described = {
      ...issue,
      missing: issue.code === 'invalid_type' && sent[field] === undefined,
    } as FieldIssueLike;
    if (wordedByCode(described)) out[field] = issueMessage(described);
  }
  return out;
}

/**
 * The first problem of each field (spec-2 §5: required, number min/max/step, URL and e-mail types), then what the
 * server's schema would refuse, in the interface's language.
 */
export function validateFields(
  endpoint: PlaygroundEndpoint,
  values: FieldValues,
  files: FieldFiles,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of endpoint.fields) {
    if (isFileField(f)) {
      const n = files[f.name]?.length ?? 0;
      if (n === 0) {
        if (f.required) errors[f.name] = validationMessages.required;
      } else if (f.min !== undefined && n < f.min) errors[f.name] = validationMessages.minFiles(f.min);
      else if (f.max !== undefined && n > f.max) errors[f.name] = validationMessages.maxFiles(f.max);
      continue;
    }
    if (f.type === 'checkbox') continue;
    const raw = String(values[f.name] ?? '').trim();
    if (!raw) {
      if (f.required) errors[f.name] = validationMessages.required;
      continue;
    }
    if (f.type === 'number') {
      const n = Number(raw);
      if (!Number.isFinite(n)) errors[f.name] = validationMessages.number;
      else if (f.min !== undefined && n < f.min) errors[f.name] = validationMessages.min(f.min);
      else if (f.max !== undefined && n > f.max) errors[f.name] = validationMessages.max(f.max);
      else if (f.step !== undefined && !onStep(n, f.step, f.min ?? 0)) errors[f.name] = validationMessages.step(f.step);
    } else if (f.type === 'url' && !isAbsoluteUrl(raw)) errors[f.name] = validationMessages.url;
    else if (f.type === 'email' && !EMAIL.test(raw)) errors[f.name] = validationMessages.email;
  }
  return { ...schemaProblems(endpoint, values), ...errors };
}

export interface FilePart {
  field: string;
  name: string;
  /** Absent when the code examples stand in a sample name for a file not chosen yet. */
  file?: File;
}

/**
 * One call, described once: the page sends it and the code examples print it, so what is shown is what is sent.
 * Multipart endpoints carry the key in x-api-key; JSON endpoints (QR) as a Bearer token (spec-2 §2, §7).
 */
export interface CallPlan {
  url: string;
  contentType: PlaygroundEndpoint['contentType'];
  /** Header name → value; `apiKey` stands where the key goes. */
  headers: Array<[string, string]>;
  /** Multipart text fields, in form order. */
  fields: Array<[string, string]>;
  files: FilePart[];
  /** The JSON body of JSON endpoints. */
  json?: Record<string, string | number | boolean>;
  output: PlaygroundEndpoint['output'];
  /** Sent with async=true: the server answers 202 with a job to follow (README "Jobs and webhooks"). */
  asJob: boolean;
  /** Where its job is followed: `<jobsUrl>/<id>`, then `<jobsUrl>/<id>/result`. */
  jobsUrl: string;
}

/** The endpoint's full URL: the API base plus its path. */
export const endpointUrl = (apiBase: string, endpoint: PlaygroundEndpoint) =>
  `${apiBase.replace(/\/+$/, '')}${endpoint.id}`;

/**
 * The call for these values. Empty optional fields are left out so the server applies its own default; checkboxes
 * are always sent, as true or false. `asJob` adds the jobs door's `async=true` (a form field, or `"async": true` in
 * a JSON body), which every processing endpoint takes.
 */
export function planCall(
  endpoint: PlaygroundEndpoint,
  opts: {
    apiBase: string;
    apiKey: string;
    values: FieldValues;
    files: FieldFiles;
    sampleFiles?: boolean;
    asJob?: boolean;
  },
): CallPlan {
  const multipart = endpoint.contentType === 'multipart/form-data';
  const plan: CallPlan = {
    url: endpointUrl(opts.apiBase, endpoint),
    contentType: endpoint.contentType,
    headers: multipart
      ? [['x-api-key', opts.apiKey]]
      : [
          ['Authorization', `Bearer ${opts.apiKey}`],
          ['Content-Type', 'application/json'],
        ],
    fields: [],
    files: [],
    output: endpoint.output,
    asJob: opts.asJob === true,
    jobsUrl: `${opts.apiBase.replace(/\/+$/, '')}/jobs`,
  };
  const json: Record<string, string | number | boolean> = {};
  for (const f of endpoint.fields) {
    if (isFileField(f)) {
      const chosen = opts.files[f.name] ?? [];
      if (chosen.length) plan.files.push(...chosen.map((file) => ({ field: f.name, name: file.name, file })));
      else if (opts.sampleFiles)
        plan.files.push(...(f.sampleFiles ?? ['file']).map((name) => ({ field: f.name, name })));
      continue;
    }
    const v = opts.values[f.name];
    if (f.type === 'checkbox') {
      if (multipart) plan.fields.push([f.name, v === true ? 'true' : 'false']);
      else json[f.name] = v === true;
      continue;
    }
    const text = typeof v === 'string' ? v : '';
    if (!text.trim()) continue;
    if (multipart) plan.fields.push([f.name, f.type === 'number' ? text.trim() : text]);
    else json[f.name] = f.type === 'number' ? Number(text) : f.type === 'text' ? text : text.trim();
  }
  if (plan.asJob) {
    if (multipart) plan.fields.push(['async', 'true']);
    else json.async = true;
  }
  if (!multipart) plan.json = json;
  return plan;
}
