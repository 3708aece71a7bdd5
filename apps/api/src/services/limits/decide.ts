import type { LimitDecision, LimitWindow, RateLimits, WindowCounts } from './types';

export const HOUR_SEC = 3600;
/** The month as the RateLimit-Policy header states it (30 days); the counter itself follows the calendar month. */
const POLICY_MONTH_SEC = 2_592_000;

/** The UTC calendar month of `nowMs`: its id (counter key) and bounds. */
export function monthBounds(nowMs: number) {
  const d = new Date(nowMs);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { id: `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`, start, end };
}

const secs = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The answer to a call (or a peek) from the counts of its windows: remaining per window, headers, Retry-After. */
export function decide(limits: RateLimits, now: number, c: WindowCounts): LimitDecision {
  const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
  const perMinute = limits.maxRequestsPerMinute;
  const hourReset = secs(c.hourResetMs ?? HOUR_SEC * 1000);
  const monthReset = Math.max(1, Math.ceil((monthBounds(now).end - now) / 1000));
  type Shown = { w: LimitWindow; limit: number; remaining: number; reset: number };
  const minute: Shown = {
    w: 'minute',
    limit: capacity,
    remaining: c.refused === 'minute' ? 0 : Math.floor(c.tokens),
    reset: Math.ceil(((capacity - c.tokens) * 60) / perMinute),
  };
  const hour: Shown = {
    w: 'hour',
    limit: limits.maxRequestsPerHour,
    remaining: c.refused === 'hour' ? 0 : Math.max(0, limits.maxRequestsPerHour - c.hourCount),
    reset: hourReset,
  };
  const month: Shown = {
    w: 'month',
    limit: limits.maxRequestsPerMonth,
    remaining: c.refused === 'month' ? 0 : Math.max(0, limits.maxRequestsPerMonth - c.monthCount),
    reset: monthReset,
  };
  const windows = [minute, hour, month];
  // The headers speak of the window closest to refusing (the refusing one when refused).
  const shown = c.refused
    ? windows.find((x) => x.w === c.refused)!
    : windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  const burst =
    limits.burstLimit !== null && limits.burstLimit !== limits.maxRequestsPerMinute
      ? `;burst=${limits.burstLimit}`
      : '';
  const headers: Record<string, string | number> = {
    'RateLimit-Limit': shown.limit,
    'RateLimit-Remaining': shown.remaining,
    'RateLimit-Reset': Math.max(0, shown.reset),
    'RateLimit-Policy': `${limits.maxRequestsPerMinute};w=60${burst}, ${limits.maxRequestsPerHour};w=${HOUR_SEC}, ${limits.maxRequestsPerMonth};w=${POLICY_MONTH_SEC}`,
  };
  let retryAfterSec: number | undefined;
  if (c.refused) {
    // Minute: until the next token; hour: until the window resets; month: until the next calendar month.
    const retry =
      c.refused === 'minute'
        ? Math.ceil(((1 - c.tokens) * 60) / perMinute)
        : c.refused === 'hour'
          ? hourReset
          : monthReset;
    retryAfterSec = Math.max(1, retry);
    headers['Retry-After'] = retryAfterSec;
  }
  return {
    allowed: !c.refused,
    window: c.refused,
    code: c.refused ? (c.refused === 'month' ? 'QUOTA_EXCEEDED' : 'RATE_LIMIT_EXCEEDED') : undefined,
    retryAfterSec,
    remaining: { minute: minute.remaining, hour: hour.remaining, month: month.remaining },
    monthUsed: c.monthCount,
    headers,
  };
}
