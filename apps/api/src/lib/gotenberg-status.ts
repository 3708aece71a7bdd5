import type { TErrorCode } from '@docflow/contracts';

/**
 * The statuses a Gotenberg client expects where they differ from DocFlow's (plugins/error-handler.ts stays the one
 * mapping of what went wrong; this only reshapes the answer): a form or document the route cannot use is 400 (DocFlow
 * says 422 or 415), a timeout is 503 (DocFlow 504) and a full queue is 429; keys, plans, limits and sizes keep
 * DocFlow's statuses (401, 402, 403, 413, 429). Read by the Gotenberg routes' error handler and by the API reference.
 */

const gotenbergStatus: Partial<Record<TErrorCode, number>> = {
  TIMEOUT: 503,
  QUEUE_FULL: 429,
};

/** The page checks a client asked for (failOnHttpStatusCodes, failOnConsoleExceptions): Gotenberg's 409 Conflict. */
const conflictReasons = new Set(['HTTP_STATUS', 'CONSOLE_EXCEPTIONS', 'RESOURCE_HTTP_STATUS', 'RESOURCE_LOADING']);
/** The code a failed page check is answered with (409 when its details carry one of the reasons above). */
export const PAGE_CHECK_CODE: TErrorCode = 'INVALID_DOCUMENT';

export function statusFor(code: TErrorCode, status: number, details?: unknown): number {
  const reason = (details as { reason?: unknown } | undefined)?.reason;
  if (code === PAGE_CHECK_CODE && typeof reason === 'string' && conflictReasons.has(reason)) return 409;
  const mapped = gotenbergStatus[code];
  if (mapped) return mapped;
  if (status === 415 || status === 422) return 400;
  return status;
}
