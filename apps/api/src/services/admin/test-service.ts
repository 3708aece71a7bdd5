import { checkUrl, type OutboundRules } from '../../core/net/public-address';
import { pinnedRequest } from '../../core/net/pinned-request';
import { recordAudit } from '../accounts/audit';
import type { AdminContext } from './context';

/**
 * POST /admin/system/test-service: whether a URL answers, and how fast. Under the same rules as URL conversion
 * (public addresses, and the operator's allow-list, unless URL_TO_PDF_ALLOW_PRIVATE), and connected to the very addresses that were checked,
 * so a name that re-resolves to an internal address between check and connect reaches nothing. No redirect is
 * followed: the status says where it pointed.
 */
export async function testService(ctx: AdminContext, input: { url: string; timeout: number }, outbound: OutboundRules) {
  const checked = await checkUrl(input.url, outbound);
  const answer = await pinnedRequest(checked, {
    method: 'GET',
    timeoutMs: input.timeout,
    headers: { 'user-agent': 'DocFlow-monitor/1' },
  });
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.test_service',
    ip: ctx.ip,
    target: { type: 'system', id: checked.url.origin },
    details: { statusCode: answer.statusCode, error: answer.error },
  });
  return {
    url: checked.url.toString(),
    reachable: answer.statusCode !== null,
    statusCode: answer.statusCode,
    response_time_ms: answer.ms,
    error: answer.error,
  };
}
