import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import yazl from 'yazl';
import { AppError } from './app-error';

/**
 * How every processing route answers: a file streamed from the request's workspace, a zip of several files, the
 * same as JSON with base64 on `Accept: application/json`, or a data result `{ success: true, data }`. Each answer
 * carries X-Processing-Time-Ms and fills the usage meter (bytes out, pages).
 */

export interface ResultFile {
  path: string;
  /** File name offered to the client. */
  fileName: string;
  mimeType: string;
  pages?: number;
}

/** JSON answers of files hold the whole file in memory (base64): bound them. */
const MAX_JSON_FILE_BYTES = 64 * 1_048_576;

const mimeByExt: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.jp2': 'image/jp2',
  '.jbig2': 'image/x-jbig2',
  '.jb2': 'image/x-jbig2',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.ppm': 'image/x-portable-pixmap',
  '.pbm': 'image/x-portable-bitmap',
  '.ccitt': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
};
export const mimeOf = (name: string) => mimeByExt[path.extname(name).toLowerCase()] ?? 'application/octet-stream';

export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\bapplication\/json\b/i.test(accept);
}

/** The client's name without its extension, made safe for a header and a file system. */
export function baseName(clientName: string | undefined, fallback = 'document'): string {
  const raw = path.basename((clientName ?? '').replace(/\\/g, '/'));
  const noExt = raw.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const clean = noExt
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, '_')
    .trim()
    .slice(0, 120);
  return clean || fallback;
}

/** "report.pdf" + "merged" + "pdf" → "report-merged.pdf" */
export const outputName = (clientName: string | undefined, suffix: string, ext: string) =>
  `${baseName(clientName)}-${suffix}.${ext}`;

/** attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded (RFC 6266 / 5987). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  if (/^[\x20-\x7e]*$/.test(fileName) && !/["\\]/.test(fileName)) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function stampTime(reply: FastifyReply): void {
  if (!reply.hasHeader('X-Processing-Time-Ms')) reply.header('X-Processing-Time-Ms', Math.round(reply.elapsedTime));
}

function meter(request: FastifyRequest, bytesOut: number, pages?: number): void {
  if (!request.usage) return;
  request.usage.bytesOut = bytesOut;
  if (pages !== undefined && request.usage.pages === undefined) request.usage.pages = pages;
}

/**
 * One file: streamed, or as JSON with base64. `json: false` always streams it (the Gotenberg-compatible routes: its
 * clients may send Accept: application/json and still expect the file).
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ResultFile,
  headers: Record<string, string | number> = {},
  opts: { json?: boolean } = {},
): Promise<FastifyReply> {
  const size = (await stat(file.path)).size;
  meter(request, size, file.pages);
  reply.headers(headers);
  stampTime(reply);
  if (opts.json ?? wantsJson(request)) {
    if (size > MAX_JSON_FILE_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The result (${Math.round(size / 1_048_576)} MB) is too large for a JSON answer; ask for the file itself (omit Accept: application/json)`,
      );
    }
    const base64 = (await readFile(file.path)).toString('base64');
    return reply.type('application/json').send({
      success: true,
      data: {
        fileName: file.fileName,
        mimeType: file.mimeType,
        size,
        ...(file.pages !== undefined ? { pages: file.pages } : {}),
        base64,
      },
    });
  }
  return reply
    .type(file.mimeType)
    .header('Content-Disposition', contentDisposition(file.fileName))
    .header('Content-Length', size)
    .send(createReadStream(file.path));
}

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
 * Several files as one zip, streamed as it is built (yazl). Entries of known size without compression let yazl
 * compute the final length, so the answer carries a Content-Length.
 */
export async function sendZip(
  request: FastifyRequest,
  reply: FastifyReply,
  files: Array<{ path: string; name: string }>,
  zipName: string,
  opts: { pages?: number; headers?: Record<string, string | number>; inMemoryBytes?: number; json?: boolean } = {},
): Promise<FastifyReply> {
  const zip = new yazl.ZipFile();
  const names = uniqueNames(files.map((f) => f.name));
  const mtime = new Date();
  const sizes = await Promise.all(files.map(async (f) => (await stat(f.path)).size));
  // Many small files (a split into single pages) are read at once: yazl's one-stream-after-another costs ~0.5 ms
  // per entry (200 pages: 100-170 ms against 35-60 ms), while large sets are streamed to bound memory.
  const inMemory = sizes.reduce((n, s) => n + s, 0) <= (opts.inMemoryBytes ?? ZIP_IN_MEMORY_BYTES);
  const buffers = inMemory ? await Promise.all(files.map((f) => readFile(f.path))) : null;
  files.forEach((f, i) => {
    const compress = !storeOnly.has(path.extname(f.name).toLowerCase());
    if (buffers) zip.addBuffer(buffers[i]!, names[i]!, { compress, mtime });
    else
      zip.addReadStreamLazy(names[i]!, { size: sizes[i]!, compress, mtime }, (cb) =>
        cb(null, createReadStream(f.path)),
      );
  });
  // yazl passes the final size (-1 when unknown) to this callback; its typings omit the argument.
  const end = zip.end.bind(zip) as (o: object, cb: (n: number) => void) => void;
  const finalSize = await new Promise<number>((resolve) => end({}, resolve));
  reply.headers({ 'X-File-Count': files.length, ...opts.headers });
  stampTime(reply);
  if (opts.json ?? wantsJson(request)) {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const c of zip.outputStream as AsyncIterable<Buffer>) {
      total += c.length;
      if (total > MAX_JSON_FILE_BYTES)
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          'The result is too large for a JSON answer; ask for the file itself (omit Accept: application/json)',
        );
      chunks.push(c);
    }
    const buf = Buffer.concat(chunks);
    meter(request, buf.length, opts.pages);
    return reply.type('application/json').send({
      success: true,
      data: {
        fileName: zipName,
        mimeType: 'application/zip',
        size: buf.length,
        ...(opts.pages !== undefined ? { pages: opts.pages } : {}),
        base64: buf.toString('base64'),
      },
    });
  }
  if (finalSize >= 0) reply.header('Content-Length', finalSize);
  meter(request, Math.max(0, finalSize), opts.pages);
  return reply
    .type('application/zip')
    .header('Content-Disposition', contentDisposition(zipName))
    .send(zip.outputStream);
}

/** A data result. */
export function sendData<T>(
  reply: FastifyReply,
  data: T,
  headers: Record<string, string | number> = {},
): { success: true; data: T } {
  reply.headers(headers);
  stampTime(reply);
  return { success: true, data };
}

/** A file result that is a buffer in memory (QR codes). */
export function sendBuffer(
  request: FastifyRequest,
  reply: FastifyReply,
  buf: Buffer,
  file: { fileName: string; mimeType: string },
): FastifyReply {
  meter(request, buf.length);
  stampTime(reply);
  return reply
    .type(file.mimeType)
    .header('Content-Disposition', contentDisposition(file.fileName).replace(/^attachment/, 'inline'))
    .send(buf);
}
