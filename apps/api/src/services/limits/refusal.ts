import { AppError } from '../../lib/app-error';
import type { LimitDecision, RateLimits } from './types';

/** The 429 answer of a call the limits refused, naming the window, its figure and when to retry. */
export function limitRefusal(decision: LimitDecision, limits: RateLimits): AppError {
  const w = decision.window!;
  return new AppError(
    decision.code!,
    w === 'month'
      ? `Monthly quota of ${limits.maxRequestsPerMonth} requests reached; it renews at the start of next month (UTC)`
      : w === 'hour'
        ? `Rate limit exceeded: ${limits.maxRequestsPerHour} requests per hour; retry in ${decision.retryAfterSec} s`
        : `Rate limit exceeded: ${limits.maxRequestsPerMinute} requests per minute${limits.burstLimit ? ` (bursts of ${limits.burstLimit})` : ''}; retry in ${decision.retryAfterSec} s`,
    { headers: decision.headers, details: { window: w, retryAfter: decision.retryAfterSec } },
  );
}
