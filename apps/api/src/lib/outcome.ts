import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { AppError } from './app-error';

/**
 * What an endpoint's run gives back, whatever the door it came through: a file of its workspace, several files as
 * one zip, or data. The door decides how it travels (an HTTP answer, a job's stored result), through the one
 * rendering below, so that a job's stored answer is byte for byte the synchronous one.
 */
export type Outcome = FileOutcome | ZipOutcome | DataOutcome | BytesOutcome;

type Headers = Record<string, string | number>;

export interface ResultFile {
  path: string;
  /** File name offered to the client. */
  fileName: string;
  mimeType: string;
  pages?: number;
}

export interface FileOutcome {
  kind: 'file';
  file: ResultFile;
  headers?: Headers;
  /** false: always the file itself, whatever Accept says (the Gotenberg routes' clients expect the file). */
  json?: boolean;
  /** Content-Disposition `inline` instead of `attachment` (a QR code shown in a page). */
  inline?: boolean;
}

export interface ZipOutcome {
  kind: 'zip';
  files: Array<{ path: string; name: string }>;
  zipName: string;
  pages?: number;
  headers?: Headers;
  json?: boolean;
  /** Below this total size the entries are read at once (faster for many small files); above, streamed. */
  inMemoryBytes?: number;
}

export interface DataOutcome {
  kind: 'data';
  data: unknown;
  headers?: Headers;
}

/** A small result made in memory (a QR code), always answered as itself. */
export interface BytesOutcome {
  kind: 'bytes';
  data: Buffer;
  /** Offered as Content-Disposition; absent: none (a JSON document). */
  fileName?: string;
  mimeType: string;
  /** Content-Disposition `inline`: shown in a page rather than saved. */
  inline?: boolean;
  headers?: Headers;
}

export const fileOutcome = (file: ResultFile, headers?: Headers, opts: { json?: boolean } = {}): FileOutcome => ({
  kind: 'file',
  file,
  headers,
  ...opts,
});

export const zipOutcome = (
  files: ZipOutcome['files'],
  zipName: string,
  opts: Omit<ZipOutcome, 'kind' | 'files' | 'zipName'> = {},
): ZipOutcome => ({ kind: 'zip', files, zipName, ...opts });

export const dataOutcome = (data: unknown, headers?: Headers): DataOutcome => ({ kind: 'data', data, headers });

/** An outcome as it travels: status, type, the outcome's own headers, and a body (a stream, or JSON to serialize). */
export interface Rendered {
  statusCode: number;
  contentType: string;
  headers: Headers;
  /** Offered as Content-Disposition. */
  fileName: string | null;
  inline: boolean;
  /** JSON bodies are objects (the HTTP door serializes them with the route's schema). */
  body: Readable | Buffer | object;
  /** Bytes of the body when known before it is sent. */
  size: number | null;
  pages?: number;
}

/** JSON answers of files hold the whole file in memory (base64): bound them. */
const MAX_JSON_FILE_BYTES = 64 * 1_048_576;

const tooLargeForJson = (size?: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The result${size === undefined ? '' : ` (${Math.round(size / 1_048_576)} MB)`} is too large for a JSON answer; ask for the file itself (omit Accept: application/json)`,
  );

const fileJson = (fileName: string, mimeType: string, buf: Buffer, pages?: number) => ({
  success: true as const,
  data: {
    fileName,
    mimeType,
    size: buf.length,
    ...(pages !== undefined ? { pages } : {}),
    base64: buf.toString('base64'),
  },
});

/** Names inside a zip must be unique: "a.pdf", "a (2).pdf"… */
function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = n.toLowerCase();
    const count = (seen.get(k) ?? 0) + 1;
    seen.set(k, count);
    if (count === 1) return n;
    const ext = path.extname(n);
    return `${n.slice(0, n.length - ext.length)} (${count})${ext}`;
  });
}

const ZIP_IN_MEMORY_BYTES = 16 * 1_048_576;

/** Already-compressed formats are stored, not deflated again (faster, and no smaller either way). */
const storeOnly = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.jp2', '.zip']);

/**
 * Several files as one zip, built as it is read (yazl). Entries of known size without compression let yazl
 * compute the final length, so the answer carries a Content-Length.
 */
async function zipOf(o: ZipOutcome): Promise<{ stream: Readable; size: number }> {
  const zip = new yazl.ZipFile();
  const names = uniqueNames(o.files.map((f) => f.name));
  const mtime = new Date();
  const sizes = await Promise.all(o.files.map(async (f) => (await stat(f.path)).size));
  // Many small files (a split into single pages) are read at once: yazl's one-stream-after-another costs ~0.5 ms
  // per entry (200 pages: 100-170 ms against 35-60 ms), while large sets are streamed to bound memory.
  const inMemory = sizes.reduce((n, s) => n + s, 0) <= (o.inMemoryBytes ?? ZIP_IN_MEMORY_BYTES);
  const buffers = inMemory ? await Promise.all(o.files.map((f) => readFile(f.path))) : null;
  o.files.forEach((f, i) => {
    const compress = !storeOnly.has(path.extname(f.name).toLowerCase());
    if (buffers) zip.addBuffer(buffers[i]!, names[i]!, { compress, mtime });
    else
      zip.addReadStreamLazy(names[i]!, { size: sizes[i]!, compress, mtime }, (cb) =>
        cb(null, createReadStream(f.path)),
      );
  });
  // yazl passes the final size (-1 when unknown) to this callback; its typings omit the argument.
  const end = zip.end.bind(zip) as (o: object, cb: (n: number) => void) => void;
  const size = await new Promise<number>((resolve) => end({}, resolve));
  return { stream: zip.outputStream as Readable, size };
}

/** `json`: the client asked for JSON (Accept: application/json); an outcome's own `json` overrides it. */
export async function renderOutcome(o: Outcome, opts: { json: boolean }): Promise<Rendered> {
  const base = { statusCode: 200, inline: false, fileName: null };
  if (o.kind === 'data') {
    return {
      ...base,
      contentType: 'application/json',
      headers: o.headers ?? {},
      body: { success: true, data: o.data },
      size: null,
    };
  }
  if (o.kind === 'bytes') {
    return {
      ...base,
      contentType: o.mimeType,
      headers: o.headers ?? {},
      fileName: o.fileName ?? null,
      inline: o.inline === true,
      body: o.data,
      size: o.data.length,
    };
  }
  if (o.kind === 'file') {
    const { file } = o;
    const size = (await stat(file.path)).size;
    if (o.json ?? opts.json) {
      if (size > MAX_JSON_FILE_BYTES) throw tooLargeForJson(size);
      const buf = await readFile(file.path);
      return {
        ...base,
        contentType: 'application/json',
        headers: o.headers ?? {},
        body: fileJson(file.fileName, file.mimeType, buf, file.pages),
        size: buf.length,
        pages: file.pages,
      };
    }
    return {
      ...base,
      contentType: file.mimeType,
      headers: o.headers ?? {},
      fileName: file.fileName,
      inline: o.inline === true,
      body: createReadStream(file.path),
      size,
      pages: file.pages,
    };
  }
  const zip = await zipOf(o);
  const headers = { 'X-File-Count': o.files.length, ...o.headers };
  if (o.json ?? opts.json) {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const c of zip.stream as AsyncIterable<Buffer>) {
      total += c.length;
      if (total > MAX_JSON_FILE_BYTES) throw tooLargeForJson();
      chunks.push(c);
    }
    const buf = Buffer.concat(chunks);
    return {
      ...base,
      contentType: 'application/json',
      headers,
      body: fileJson(o.zipName, 'application/zip', buf, o.pages),
      size: buf.length,
      pages: o.pages,
    };
  }
  return {
    ...base,
    contentType: 'application/zip',
    headers,
    fileName: o.zipName,
    body: zip.stream,
    size: zip.size >= 0 ? zip.size : null,
    pages: o.pages,
  };
}
