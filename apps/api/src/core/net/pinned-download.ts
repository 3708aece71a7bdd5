import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EngineError } from '../errors';
import { checkUrl, type OutboundRules } from './public-address';

export interface Downloaded {
  size: number;
  /** The answer's media type, without parameters ('' when none was sent). */
  contentType: string;
  /** The last path segment of the URL that answered (after redirects), for messages and output names. */
  fileName: string;
  /** The answer's Content-Disposition header, as sent (absent: undefined). */
  contentDisposition?: string;
}

export interface DownloadOptions {
  /** The operator's outbound rules (config.outbound), as URL conversion and webhooks follow them. */
  rules: OutboundRules;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Redirects followed, each one checked as the first URL (default 5). */
  maxRedirects?: number;
  /** Names the input in messages (`files[1].url`). */
  label: string;
  /** The error of a file over `maxBytes` (the door's: its size limit is the plan's). */
  tooLarge(): Error;
  /** Headers sent with the request (the caller's: checked by the door, never Host or connection-level ones). */
  headers?: Record<string, string>;
}

/**
 * A file fetched from a URL under the rules of URL conversion (core/net/public-address.ts): every URL, redirects
 * included, is checked, and the connection goes to the very address that was checked, so a name that re-resolves to
 * an internal address reaches nothing. The body is written to `dest`, stopped past `maxBytes`.
 */
export async function pinnedDownload(raw: string, dest: string, opts: DownloadOptions): Promise<Downloaded> {
  let target = raw;
  for (let hop = 0; ; hop++) {
    const checked = await checkUrl(target, opts.rules).catch((err: unknown) => {
      if (err instanceof EngineError && err.message.startsWith('url:'))
        throw new EngineError(err.code, `${opts.label}:${err.message.slice('url:'.length)}`, { details: err.details });
      throw err;
    });
    const pinned = checked.addresses[0]!;
    const lookup: LookupFunction = (_host, options, cb) => {
      if ((options as { all?: boolean }).all)
        (cb as unknown as (e: null, a: (typeof checked.addresses)[number][]) => void)(null, [pinned]);
      else cb(null, pinned.address, pinned.family);
    };
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = checked.url.protocol === 'https:' ? https : http;
      const req = client.get(
        checked.url,
        { lookup, timeout: opts.timeoutMs, signal: opts.signal, headers: opts.headers },
        resolve,
      );
      req.on('timeout', () =>
        req.destroy(new EngineError('INVALID_INPUT', `${opts.label}: no answer within ${opts.timeoutMs} ms`)),
      );
      req.on('error', reject);
    }).catch((err: unknown) => {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        'INVALID_INPUT',
        `${opts.label}: the file could not be fetched (${(err as Error).message})`,
        {
          details: { field: opts.label },
        },
      );
    });
    // An answer left unread (a redirect, a refused status) may still be torn down by the signal later: not an error.
    res.on('error', () => undefined);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= (opts.maxRedirects ?? 5))
        throw new EngineError('INVALID_INPUT', `${opts.label}: too many redirects`, { details: { field: opts.label } });
      target = new URL(res.headers.location, checked.url).toString();
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new EngineError('INVALID_INPUT', `${opts.label}: the URL answered HTTP ${status}`, {
        details: { field: opts.label, status },
      });
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw opts.tooLarge();
    }
    let size = 0;
    const bound = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(size > opts.maxBytes ? opts.tooLarge() : null, chunk);
      },
    });
    await pipeline(res, bound, createWriteStream(dest));
    const segment = decodeURIComponent(checked.url.pathname.split('/').pop() ?? '');
    return {
      size,
      contentType: (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
      fileName: segment || 'download',
      contentDisposition: res.headers['content-disposition'],
    };
  }
}
