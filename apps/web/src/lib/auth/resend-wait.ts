import { ApiError } from '@/lib/api-client';

/** The seconds the server asks to wait before another mail (429 with details.retryAfter), or null. */
export function resendWaitSeconds(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.status !== 429) return null;
  const s = Number((err.details as { retryAfter?: unknown } | undefined)?.retryAfter);
  return Number.isFinite(s) && s > 0 ? Math.ceil(s) : null;
}
