import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { EngineError } from '../../core/errors';
import { pinnedDownload } from '../../core/net/pinned-download';
import type { OutboundRules } from '../../core/net/public-address';
import type { Workspace } from '../../core/workspace';
import { AppError } from '../../lib/app-error';
import { tooLarge, type UploadedFile } from '../../lib/uploads';
import { readHeaderMap } from './header-map';

/**
 * Gotenberg's `downloadFrom` form field, on every route: a JSON list of `{ "url", "extraHttpHeaders", "embedded",
 * "field" }` whose files are fetched before the form is read and taken as if uploaded: in `files`, or in `embeds`
 * (`embedded: true` or `field: "embedded"`), `watermark` or `stamp`. Each URL, redirects included, obeys the server's
 * outbound rules (config.outbound: public addresses and OUTBOUND_ALLOW_LIST), each file the plan's size limit, and
 * each answer must name its file in Content-Disposition, as Gotenberg requires. Errors in Gotenberg's words.
 */

export const DOWNLOAD_FROM_FIELD = 'downloadFrom';
/** A URL that does not answer in this time is the caller's problem, as with MCP's file URLs. */
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** Downloads at once: a list of a hundred URLs must not open a hundred connections. */
const PARALLEL = 4;
const ENTRY_KEYS = new Set(['url', 'extraHttpHeaders', 'embedded', 'field']);
const FIELDS: Record<string, string> = { embedded: 'embeds', watermark: 'watermark', stamp: 'stamp' };

interface Entry {
  url: string;
  headers: Record<string, string>;
  field: string;
}

const invalidValue = (message: string) =>
  new AppError('BAD_REQUEST', `Invalid '${DOWNLOAD_FROM_FIELD}' form field value: ${message}`, {
    details: { field: DOWNLOAD_FROM_FIELD },
  });
const invalidEntry = (i: number, message: string) =>
  new AppError('BAD_REQUEST', `Invalid '${DOWNLOAD_FROM_FIELD}' form field entry ${i}: ${message}`, {
    details: { field: DOWNLOAD_FROM_FIELD },
  });

/** The list as Gotenberg reads it; a key DocFlow does not know is refused (never ignored). */
function readEntries(raw: string, fileFields: string[], maxFiles: number): Entry[] {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch (err) {
    throw invalidValue((err as Error).message);
  }
  if (!Array.isArray(list)) throw invalidValue('expected a JSON array such as [{"url":"https://…"}]');
  if (list.length > maxFiles) throw invalidValue(`${list.length} entries, this route takes at most ${maxFiles} files`);
  return list.map((item: unknown, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw invalidEntry(i, 'expected an object such as {"url":"https://…"}');
    const e = item as Record<string, unknown>;
    const unknown = Object.keys(e).find((k) => !ENTRY_KEYS.has(k));
    if (unknown) throw invalidEntry(i, `'${unknown}' is not supported (valid: ${[...ENTRY_KEYS].join(', ')})`);
    if (typeof e.url !== 'string' || !e.url.trim()) throw invalidEntry(i, 'URL must be set');
    if (e.embedded !== undefined && typeof e.embedded !== 'boolean') throw invalidEntry(i, "'embedded' is a boolean");
    if (e.field !== undefined && (typeof e.field !== 'string' || (e.field !== '' && !FIELDS[e.field])))
      throw invalidEntry(i, "'field' is one of 'embedded', 'watermark' or 'stamp'");
    const field = e.embedded === true ? 'embeds' : (FIELDS[(e.field as string | undefined) ?? ''] ?? 'files');
    if (!fileFields.includes(field)) throw invalidEntry(i, `this route takes no '${field}' files`);
    let headers: Record<string, string> = {};
    if (e.extraHttpHeaders !== undefined) {
      const read = readHeaderMap(e.extraHttpHeaders);
      if (read.problems.length) throw invalidEntry(i, `'extraHttpHeaders' ${read.problems.join('; ')}`);
      headers = read.headers;
    }
    return { url: e.url.trim(), headers, field };
  });
}

/** The file name of a Content-Disposition value (RFC 6266: filename* in UTF-8 before filename), or undefined. */
export function dispositionFileName(value: string): string | undefined {
  const params = value.split(';').slice(1);
  const param = (name: string) => {
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === name) return p.slice(eq + 1).trim();
    }
    return undefined;
  };
  const extended = param('filename*');
  const m = extended ? /^utf-8'[^']*'(.+)$/i.exec(extended) : null;
  if (m) {
    try {
      return decodeURIComponent(m[1]!);
    } catch {
      /* the plain filename below */
    }
  }
  const plain = param('filename');
  if (plain === undefined) return undefined;
  return plain.startsWith('"') && plain.endsWith('"') && plain.length >= 2
    ? plain.slice(1, -1).replace(/\\(.)/g, '$1')
    : plain;
}

/** Gotenberg's sanitizeFilename: no directories (either slash), no control characters, NFC. */
const safeFileName = (name: string) =>
  path.posix
    .basename(name.replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .normalize('NFC')
    .trim();

/** One entry fetched into the workspace, or the error Gotenberg would answer. */
async function download(entry: Entry, index: number, opts: DownloadFromOptions): Promise<UploadedFile> {
  const dest = opts.workspace.file(`download-${index + 1}`);
  let got;
  try {
    got = await pinnedDownload(entry.url, dest, {
      rules: opts.rules,
      maxBytes: opts.maxFileSize,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      signal: opts.signal,
      label: `${DOWNLOAD_FROM_FIELD}[${index}].url`,
      tooLarge: () => tooLarge(opts.maxFileSize, `${DOWNLOAD_FROM_FIELD}[${index}]`),
      // Gotenberg's own agent unless the caller sets one.
      headers: { 'User-Agent': 'Gotenberg', ...entry.headers },
    });
  } catch (err) {
    // Refused by the outbound rules (403) or too large (413): DocFlow's answer. Anything else is the URL's.
    if (!(err instanceof EngineError) || err.code === 'URL_NOT_ALLOWED') throw err;
    const status = (err.details as { status?: number } | undefined)?.status;
    // Go's resp.Status, as Gotenberg quotes it: "404 Not Found".
    const why = status ? `got status: '${`${status} ${STATUS_CODES[status] ?? ''}`.trim()}'` : err.message;
    throw new AppError('BAD_REQUEST', `Unable to download file from '${entry.url}': ${why}`, {
      details: { field: DOWNLOAD_FROM_FIELD, url: entry.url },
    });
  }
  const disposition = got.contentDisposition;
  if (!disposition) throw new AppError('BAD_REQUEST', `No 'Content-Disposition' header from '${entry.url}'`);
  const named = dispositionFileName(disposition);
  const filename = named === undefined ? '' : safeFileName(named);
  if (!filename || filename === '.' || filename === '..')
    throw new AppError(
      'BAD_REQUEST',
      `Invalid 'Content-Disposition' header '${disposition}' from '${entry.url}': no filename`,
    );
  return {
    field: entry.field,
    filename,
    mimetype: got.contentType || 'application/octet-stream',
    path: dest,
    size: got.size,
  };
}

export interface DownloadFromOptions {
  rules: OutboundRules;
  workspace: Workspace;
  maxFileSize: number;
  /** Files the route takes in all (uploaded ones included). */
  maxFiles: number;
  /** The route's file fields (`files`, and `embeds`, `watermark`, `stamp` where it takes them). */
  fileFields: string[];
  signal?: AbortSignal;
}

/**
 * The files `downloadFrom` lists, fetched (a few at a time); none when the field is absent or empty. The caller
 * removes the field from the form: it is the gate's, not the route's.
 */
export async function downloadFrom(raw: string | undefined, opts: DownloadFromOptions): Promise<UploadedFile[]> {
  if (raw === undefined || raw.trim() === '') return [];
  const entries = readEntries(raw, opts.fileFields, opts.maxFiles);
  // The caller's signal stops the downloads while they run, and is unhooked after: a request answered (an error
  // included) must not tear down connections already done with.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const files: UploadedFile[] = [];
    const run = { ...opts, signal: stop.signal };
    for (let i = 0; i < entries.length; i += PARALLEL)
      files.push(...(await Promise.all(entries.slice(i, i + PARALLEL).map((e, j) => download(e, i + j, run)))));
    return files;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
