import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedUrl } from './public-address';

export interface PinnedAnswer {
  statusCode: number | null;
  /** Why there was no answer (refused, timed out…). */
  error: string | null;
  ms: number;
}

/**
 * One HTTP request to a URL checked by `checkUrl`, connected to the very address that was checked (a name that
 * re-resolves to an internal address between check and connect reaches nothing). Redirects are not followed, the
 * answer's body is not read: the status is what is asked.
 */
export function pinnedRequest(
  checked: CheckedUrl,
  opts: { method: string; headers: Record<string, string>; body?: string | Buffer; timeoutMs: number },
): Promise<PinnedAnswer> {
  const pinned = checked.addresses[0]!;
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all)
      (cb as unknown as (e: null, a: (typeof checked.addresses)[number][]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  return new Promise((resolve) => {
    const client = checked.url.protocol === 'https:' ? https : http;
    const req = client.request(
      checked.url,
      { method: opts.method, lookup, timeout: opts.timeoutMs, headers: opts.headers },
      (res) => {
        res.resume();
        resolve({ statusCode: res.statusCode ?? null, error: null, ms: ms() });
        req.destroy();
      },
    );
    req.on('timeout', () => {
      resolve({ statusCode: null, error: `no answer within ${opts.timeoutMs} ms`, ms: ms() });
      req.destroy();
    });
    req.on('error', (err) => resolve({ statusCode: null, error: err.message, ms: ms() }));
    req.end(opts.body);
  });
}
