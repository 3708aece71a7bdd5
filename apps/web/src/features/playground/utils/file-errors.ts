import { tr } from '@/i18n/localised';
import { formatBytes } from '@/lib/plans/format-plan';
import type { PlaygroundEndpoint, PlaygroundField } from '../config/endpoints';
import type { PlaygroundResponse } from '../api/send-request';
import { isFileField, validationMessages, type FieldFiles } from './request-plan';

/** What the server puts in `details` when it refuses the files of a call (apps/api lib/uploads.ts, checkCall). */
interface FileDetails {
  field?: unknown;
  min?: unknown;
  max?: unknown;
  maxFileSize?: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A refused file count, worded with the field's own bounds (the catalogue's, which the server checks too: its figure
 * may count the endpoint's other file fields as well). The server names the lower bound only when too few arrived.
 */
function countMessage(field: PlaygroundField, d: FileDetails): string {
  const min = num(d.min);
  if (min !== undefined) {
    const least = field.min ?? min;
    return least <= 1 ? validationMessages.required : validationMessages.minFiles(least);
  }
  return validationMessages.maxFiles(field.max ?? num(d.max) ?? 1);
}

/**
 * The file errors of a refused call, by field, in the interface's language and without the `field:` prefix of the
 * server's sentence: a file count out of bounds (INVALID_INPUT naming the file field, or a missing file) and a file
 * over the plan's size (FILE_TOO_LARGE, put beside the field holding the file too large when the server names none).
 * Errors in `details.fields` are not here: api-client's fieldErrorsOf words those.
 */
export function fileErrorsOf(
  endpoint: PlaygroundEndpoint,
  response: Pick<PlaygroundResponse, 'code' | 'details'> | null,
  files: FieldFiles,
): Record<string, string> {
  if (!response?.code || typeof response.details !== 'object' || response.details === null) return {};
  const d = response.details as FileDetails;
  const fileFields = endpoint.fields.filter(isFileField);
  const named = fileFields.find((f) => f.name === d.field);
  const sent = (f: PlaygroundField) => files[f.name] ?? [];

  if (response.code === 'FILE_TOO_LARGE') {
    const max = num(d.maxFileSize);
    if (max === undefined) return {};
    const at = named ?? fileFields.find((f) => sent(f).some((file) => file.size > max)) ?? fileFields[0];
    return at ? { [at.name]: tr('validationMessages.fileTooLarge', { size: formatBytes(max) }) } : {};
  }
  if (response.code === 'INVALID_INPUT' && named && (num(d.min) !== undefined || num(d.max) !== undefined))
    return { [named.name]: countMessage(named, d) };
  return {};
}
