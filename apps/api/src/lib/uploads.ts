import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';

export interface UploadedFile {
  /** Form field it came in (`file` or `files`). */
  field: string;
  /** The client's file name (for messages and output names only; never used as a path). */
  filename: string;
  mimetype: string;
  /** Where it was written inside the request's workspace. */
  path: string;
  size: number;
}

export interface ReceivedUpload {
  files: UploadedFile[];
  /** Text fields; a field sent several times keeps the last value, unless `keepRepeated`. */
  fields: Record<string, string>;
}

export interface UploadLimits {
  /** Bytes per file (the key's plan). Enforced while streaming: the upload is cut off, never buffered whole. */
  maxFileSize: number;
  maxFiles: number;
  /** The field a refused file count is about (details.field), so a form can show it beside that field's control. */
  countedField?: string;
  /** File fields accepted; others are refused with 422 naming the field. */
  fileFields?: string[];
  /**
   * A text field sent several times keeps every value: the first under its name, the next ones under
   * `<name>#2`, `<name>#3`… (names a job's stored fields can hold). For forms whose repeated fields are lists.
   */
  keepRepeated?: boolean;
}

/** The name the `n`-th value (from 1) of a repeated field is kept under (`keepRepeated`). */
export const repeatedFieldName = (name: string, n: number) => (n === 1 ? name : `${name}#${n}`);

/** The file size cap of a call without a key context (never in production: the guard sets one). */
export const FALLBACK_MAX_FILE_SIZE = 50 * 1_048_576;

const mb = (n: number) => `${Math.round((n / 1_048_576) * 10) / 10} MB`;

/**
 * Stream a multipart request's files into the request's workspace, applying the plan's size cap as bytes arrive.
 * A declared Content-Length already above what the limits allow is refused before a byte is read.
 */
export async function receiveUpload(request: FastifyRequest, limits: UploadLimits): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the document as multipart/form-data with a "file" (or "files") field',
    );
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  const ceiling = limits.maxFileSize * limits.maxFiles + 1_048_576; // files plus room for text fields
  if (declared > ceiling) throw tooLarge(limits.maxFileSize);

  const ws = await request.workspace();
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const accepted = limits.fileFields ?? ['file', 'files'];
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileSize,
        files: limits.maxFiles,
        fields: 100,
        fieldSize: 1_048_576,
        parts: limits.maxFiles + 100,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        // No option takes a NUL, and PostgreSQL text cannot hold one (a job stores its fields).
        if (value.includes('\u0000') || part.fieldname.includes('\u0000')) {
          const field = part.fieldname.replaceAll('\u0000', '');
          throw new AppError('INVALID_INPUT', `Field "${field}" contains a NUL character`, { details: { field } });
        }
        let name = part.fieldname;
        if (limits.keepRepeated)
          for (let n = 2; Object.hasOwn(fields, name); n++) name = repeatedFieldName(part.fieldname, n);
        fields[name] = value;
        continue;
      }
      if (!accepted.includes(part.fieldname)) {
        part.file.resume();
        throw new AppError('INVALID_INPUT', `Unexpected file field "${part.fieldname}"; valid: ${accepted.join(', ')}`);
      }
      const dest = ws.file(`in-${files.length + 1}-${part.filename || 'upload'}`);
      await pipeline(part.file, createWriteStream(dest));
      if (part.file.truncated) throw tooLarge(limits.maxFileSize);
      files.push({
        field: part.fieldname,
        filename: part.filename || 'upload',
        mimetype: part.mimetype,
        path: dest,
        size: part.file.bytesRead,
      });
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(limits.maxFileSize);
    if (code === 'FST_FILES_LIMIT')
      throw new AppError('INVALID_INPUT', `Too many files: at most ${limits.maxFiles}`, {
        details: { ...(limits.countedField ? { field: limits.countedField } : {}), max: limits.maxFiles },
      });
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError('INVALID_INPUT', 'Too many form fields');
    if (err instanceof AppError) throw err;
    if (code?.startsWith('FST_'))
      throw new AppError('INVALID_MULTIPART', 'The multipart body could not be read', { cause: err });
    // A client that cut the body short, or a malformed boundary.
    throw new AppError('INVALID_MULTIPART', 'The multipart body could not be read', { cause: err });
  }
  return { files, fields };
}

/** A file over the plan's size limit; `field` names the input when the door knows which (an MCP file argument). */
export function tooLarge(max: number, field?: string): AppError {
  return new AppError(
    'FILE_TOO_LARGE',
    `${field ? `${field}: file` : 'File'} too large: your plan allows files up to ${mb(max)}`,
    {
      details: field ? { field, maxFileSize: max } : { maxFileSize: max },
    },
  );
}
