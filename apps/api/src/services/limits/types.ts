export interface RateLimits {
  maxRequestsPerMinute: number;
  maxRequestsPerHour: number;
  maxRequestsPerMonth: number;
  burstLimit: number | null;
}

export type LimitWindow = 'minute' | 'hour' | 'month';

export interface LimitDecision {
  allowed: boolean;
  /** The window that refused the call. */
  window?: LimitWindow;
  code?: 'RATE_LIMIT_EXCEEDED' | 'QUOTA_EXCEEDED';
  retryAfterSec?: number;
  remaining: Record<LimitWindow, number>;
  /** Requests counted against the month (after this call when allowed). */
  monthUsed: number;
  /** IETF RateLimit-* headers (and Retry-After when refused). */
  headers: Record<string, string | number>;
  /** What an allowed call took, to give it back if the server fails the call (Limits.refund). */
  receipt?: LimitReceipt;
}

/** The windows one counted call went into, so a refund gives back to those and not to windows opened since. */
export interface LimitReceipt {
  subject: string;
  /** The UTC month of the call (its counter id). */
  monthId: string;
  /** When the hour window the call was counted in closes (unix ms); a later refund leaves the new window alone. */
  hourEndsAt: number;
}

/**
 * What a store knows of a key's windows after a call: everything `decide()` needs, so the memory and the Redis
 * stores only count, and one function turns counts into the answer (same decisions and headers in both modes).
 * When refused, nothing was counted: the figures are the windows as they stay.
 */
export interface WindowCounts {
  refused?: LimitWindow;
  /** Tokens in the bucket (fractional). */
  tokens: number;
  /** Calls counted in the current hour window. */
  hourCount: number;
  /** Milliseconds until the hour window resets; null when no window is open. */
  hourResetMs: number | null;
  /** Calls counted in the current UTC month. */
  monthCount: number;
}

/** A place where the windows are counted (memory, Redis). `now` is the caller's clock, for the month of the call. */
export interface LimitStore {
  /** Count one call against bucket → hour → month, or refuse it without counting it anywhere. */
  consume(subject: string, limits: RateLimits, now: number): Promise<WindowCounts>;
  /** The windows without counting a call. */
  peek(subject: string, limits: RateLimits, now: number): Promise<WindowCounts>;
  /** Give back one counted call: a bucket token, and the hour and month it was counted in (never below zero). */
  refund(receipt: LimitReceipt, limits: RateLimits, now: number): Promise<WindowCounts>;
}

/** Calls of a limit subject (subject.ts) already counted this month, from the rollups (seeds a new month counter). */
export type MonthUsedBefore = (subject: string, monthStart: Date) => Promise<number>;
