import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderOutcome, type Outcome, type Rendered } from './outcome';

/**
 * How every processing route answers: a file streamed from the request's workspace, a zip of several files, the
 * same as JSON with base64 on `Accept: application/json`, or a data result `{ success: true, data }`. Each answer
 * carries X-Processing-Time-Ms and fills the usage meter (bytes out, pages).
 */

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

/** A rendered outcome as this request's answer (the HTTP door of lib/outcome.ts). */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, r: Rendered): FastifyReply {
  if (r.size !== null) meter(request, r.size, r.pages);
  else if (r.pages !== undefined) meter(request, request.usage?.bytesOut ?? 0, r.pages);
  reply.headers(r.headers);
  stampTime(reply);
  reply.type(r.contentType);
  // JSON goes through the route's response schema (Fastify serializes it).
  if (!(r.body instanceof Readable) && !Buffer.isBuffer(r.body)) return reply.send(r.body);
  if (r.fileName !== null) {
    const disposition = contentDisposition(r.fileName);
    reply.header('Content-Disposition', r.inline ? disposition.replace(/^attachment/, 'inline') : disposition);
  }
  if (r.size !== null) reply.header('Content-Length', r.size);
  return reply.send(r.body);
}

/** What an endpoint's run gave back, as this request's answer (Accept: application/json asks files as JSON). */
export async function sendOutcome(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome,
): Promise<FastifyReply> {
  return sendRendered(request, reply, await renderOutcome(outcome, { json: wantsJson(request) }));
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
