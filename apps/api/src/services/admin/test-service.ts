import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrl } from '../../core/net/public-address';
import { recordAudit } from '../accounts/audit';
import type { AdminContext } from './context';

/**
 * POST /admin/system/test-service: whether a URL answers, and how fast. Under the same rules as URL conversion
 * (public addresses only unless URL_TO_PDF_ALLOW_PRIVATE), and connected to the very addresses that were checked,
 * so a name that re-resolves to an internal address between check and connect reaches nothing. No redirect is
 * followed: the status says where it pointed.
 */
export async function testService(
  ctx: AdminContext,
  input: { url: string; timeout: number },
  opts: { allowPrivate: boolean },
) {
  const checked = await checkUrl(input.url, { allowPrivate: opts.allowPrivate });
  const pinned = checked.addresses[0]!;
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all)
      (cb as unknown as (e: null, a: typeof checked.addresses) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const started = performance.now();
  const result = await new Promise<{ statusCode: number | null; error: string | null }>((resolve) => {
    const client = checked.url.protocol === 'https:' ? https : http;
    const req = client.request(
      checked.url,
      { method: 'GET', lookup, timeout: input.timeout, headers: { 'user-agent': 'DocFlow-monitor/1' } },
      (res) => {
        res.resume();
        resolve({ statusCode: res.statusCode ?? null, error: null });
        req.destroy();
      },
    );
    req.on('timeout', () => {
      resolve({ statusCode: null, error: `no answer within ${input.timeout} ms` });
      req.destroy();
    });
    req.on('error', (err) => resolve({ statusCode: null, error: err.message }));
    req.end();
  });
  const ms = Math.round((performance.now() - started) * 10) / 10;
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.test_service',
    ip: ctx.ip,
    target: { type: 'system', id: checked.url.origin },
    details: { statusCode: result.statusCode, error: result.error },
  });
  return {
    url: checked.url.toString(),
    reachable: result.statusCode !== null,
    statusCode: result.statusCode,
    response_time_ms: ms,
    error: result.error,
  };
}
