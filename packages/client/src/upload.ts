import type { paths } from './schema.js';

/** A file to send: a Blob or File, bytes (Buffer, Uint8Array, ArrayBuffer), or either with the name to send. */
export type UploadData = Blob | ArrayBuffer | ArrayBufferView;
export type UploadFile = UploadData | { data: UploadData; name: string; type?: string };

/** The paths whose POST takes multipart/form-data: every processing route that takes files. */
export type MultipartPath = {
  [P in keyof paths]: paths[P] extends {
    post: { requestBody?: { content: { 'multipart/form-data': unknown } } };
  }
    ? P
    : never;
}[keyof paths];

type MultipartBody<P extends MultipartPath> =
  NonNullable<paths[P]['post']['requestBody']> extends { content: { 'multipart/form-data': infer B } } ? B : never;

/** The text fields of a route (its options), by the names its schema gives them. */
export type UploadFields<P extends MultipartPath> = {
  [K in Exclude<keyof MultipartBody<P>, 'file' | 'files'>]?: string | number | boolean | null;
};

export interface UploadInput<P extends MultipartPath> {
  /** The route's `file` part. */
  file?: UploadFile;
  /** The route's `files` parts, in order. */
  files?: UploadFile[];
  /** File parts under other names, in order, e.g. `[['image', png]]` for /qrcode/decode. */
  parts?: Array<[field: string, file: UploadFile]>;
  /** Options, sent as text fields; null and undefined are left out so the server applies its default. */
  fields?: UploadFields<P>;
}

const isNamed = (f: UploadFile): f is { data: UploadData; name: string; type?: string } =>
  typeof f === 'object' && f !== null && 'data' in f && 'name' in f;

function toBlob(data: UploadData, type?: string): Blob {
  if (data instanceof Blob) return type && !data.type ? new Blob([data], { type }) : data;
  const bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
  return new Blob([bytes], type ? { type } : {});
}

/** The name a part is sent under: the given one, a File's own, else `fallback`. */
function partName(f: UploadFile, fallback: string): string {
  if (isNamed(f)) return f.name;
  const own = (f as { name?: unknown }).name;
  return typeof own === 'string' && own ? own : fallback;
}

function appendFile(form: FormData, field: string, f: UploadFile, fallback: string): void {
  const blob = isNamed(f) ? toBlob(f.data, f.type) : toBlob(f);
  form.append(field, blob, partName(f, fallback));
}

/**
 * The multipart body of a processing call: text fields first, then `file`, `files` and the other parts (the server
 * reads the parts in order).
 */
export function buildMultipart(input: {
  file?: UploadFile;
  files?: UploadFile[];
  parts?: Array<[field: string, file: UploadFile]>;
  fields?: Record<string, string | number | boolean | null | undefined>;
}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(input.fields ?? {})) {
    if (value === null || value === undefined) continue;
    form.append(name, String(value));
  }
  if (input.file) appendFile(form, 'file', input.file, 'file');
  input.files?.forEach((f, i) => appendFile(form, 'files', f, `file-${i + 1}`));
  input.parts?.forEach(([field, f], i) => appendFile(form, field, f, `${field}-${i + 1}`));
  return form;
}
