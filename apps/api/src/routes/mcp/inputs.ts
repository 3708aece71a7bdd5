import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pinnedDownload } from '../../core/net/pinned-download';
import { AppError } from '../../lib/app-error';
import { tooLarge as fileTooLarge, type UploadedFile } from '../../lib/uploads';
import { ownJob } from '../../services/jobs/index';

/**
 * Base64 files travel inside the JSON-RPC body, so they are kept small; larger files go by URL or by a job's result
 * (the plan's file size limit applies to every way in).
 */
export const MAX_BASE64_BYTES = 10 * 1_048_576;
/** A URL that does not answer in this time is refused (the call is the caller's, not a server failure). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

interface FileArgument {
  url?: unknown;
  base64?: unknown;
  jobId?: unknown;
  filename?: unknown;
}

const invalid = (label: string, message: string) =>
  new AppError('INVALID_INPUT', `${label}: ${message}`, { details: { field: label } });

/** A client-given name reduced to a safe base name (it names the output, never a path). */
const safeName = (name: string, fallback: string) =>
  path
    .basename(name)
    .replace(/[^\w.\- ()[\]]+/g, '_')
    .slice(0, 200) || fallback;

const extensionOf = (contentType: string) =>
  ({
    'application/pdf': '.pdf',
    'text/html': '.html',
    'text/plain': '.txt',
    'text/markdown': '.md',
    'image/png': '.png',
    'image/jpeg': '.jpg',
  })[contentType] ?? '';

/**
 * The file arguments of a tool call, as the uploaded files of a v1 call: each written to the request's workspace
 * within the key's file size limit. `field` is the endpoint's form field the files stand for.
 */
export async function receiveFiles(
  app: FastifyInstance,
  request: FastifyRequest,
  field: string,
  value: unknown,
): Promise<UploadedFile[]> {
  const many = Array.isArray(value);
  const list: unknown[] = many ? value : value === undefined ? [] : [value];
  const files: UploadedFile[] = [];
  for (const [i, item] of list.entries()) {
    const label = many ? `${field}[${i + 1}]` : field;
    files.push(await receiveFile(app, request, field, label, item));
  }
  return files;
}

async function receiveFile(
  app: FastifyInstance,
  request: FastifyRequest,
  field: string,
  label: string,
  item: unknown,
): Promise<UploadedFile> {
  if (!item || typeof item !== 'object') throw invalid(label, 'give an object with "url", "base64" or "jobId"');
  const arg = item as FileArgument;
  const given = (['url', 'base64', 'jobId'] as const).filter((k) => arg[k] !== undefined);
  if (given.length !== 1) throw invalid(label, 'give exactly one of "url", "base64" or "jobId"');
  if (arg.filename !== undefined && typeof arg.filename !== 'string') throw invalid(label, '"filename" is a string');
  const key = request.apiKey!;
  const maxBytes = key.limits.maxFileSize;
  const tooLarge = () => fileTooLarge(maxBytes, label);
  const ws = await request.workspace();
  const dest = ws.file(`mcp-${label.replace(/\W+/g, '-')}`);

  if (typeof arg.base64 === 'string') {
    if (!arg.filename) throw invalid(label, '"filename" is required with "base64" (its extension tells the format)');
    const text = arg.base64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalid(label, '"base64" is not base64');
    const size = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
    if (size > MAX_BASE64_BYTES && MAX_BASE64_BYTES < maxBytes)
      throw invalid(label, `base64 files are limited to ${MAX_BASE64_BYTES / 1_048_576} MB: give a "url" instead`);
    if (size > maxBytes) throw tooLarge();
    const bytes = Buffer.from(text, 'base64');
    await writeFile(dest, bytes);
    return {
      field,
      filename: safeName(arg.filename, 'upload'),
      mimetype: 'application/octet-stream',
      path: dest,
      size: bytes.length,
    };
  }
  if (typeof arg.url === 'string') {
    const got = await pinnedDownload(arg.url, dest, {
      rules: app.config.outbound,
      maxBytes,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      label: `${label}.url`,
      tooLarge,
    });
    const named = typeof arg.filename === 'string' ? arg.filename : got.fileName;
    const filename = safeName(path.extname(named) ? named : named + extensionOf(got.contentType), 'download');
    return { field, filename, mimetype: got.contentType || 'application/octet-stream', path: dest, size: got.size };
  }
  if (typeof arg.jobId === 'string') {
    if (!/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i.test(arg.jobId))
      throw invalid(label, '"jobId" is not a job id');
    const rec = request.apiKeyState!.rec!;
    const job = await ownJob(app.db, { userId: rec.userId, onlyKeyId: rec.madeByOwner ? null : rec.keyId }, arg.jobId);
    const result = job.result;
    if (job.status !== 'succeeded' || !result || result.statusCode >= 400)
      throw invalid(label, `job ${job.id} is ${job.status}: only a succeeded job's result can be an input`);
    if (result.size > maxBytes) throw tooLarge();
    await pipeline(await app.jobs.store.openResult(job.id), createWriteStream(dest));
    const named = typeof arg.filename === 'string' ? arg.filename : (result.fileName ?? 'result');
    return { field, filename: safeName(named, 'result'), mimetype: result.contentType, path: dest, size: result.size };
  }
  throw invalid(label, '"url", "base64" and "jobId" are strings');
}
