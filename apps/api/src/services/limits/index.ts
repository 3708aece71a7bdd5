import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import { MemoryTokenBuckets, RedisTokenBuckets, type TokenBuckets } from './token-bucket';

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
}

export interface LimitsOptions {
  redisUrl?: string;
  /** Redis key prefix (default `docflow:rl:`). */
  prefix?: string;
  /**
   * Requests of `keyId` already counted this month (from the usage rollups). Asked whenever a month counter is
   * (re)created, so a restart, a Redis outage or an evicted counter does not hand out a fresh quota.
   */
  monthUsedBefore?: (keyId: string, monthStart: Date) => Promise<number>;
  onRedisError?: (err: unknown) => void;
  now?: () => number;
}

/** setTimeout (used by the memory store to expire counters) overflows past 2^31-1 ms: cap window lengths below it. */
const MAX_MEMORY_WINDOW_SEC = Math.floor((2 ** 31 - 1) / 1000) - 60;
const HOUR = 3600;
const POLICY_MONTH_SEC = 2_592_000;
/** The window counters never refuse by themselves: each key's own figure is compared with the count. */
const UNBOUNDED = 2 ** 31 - 1;

function monthBounds(nowMs: number) {
  const d = new Date(nowMs);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { id: `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`, start, end };
}

/**
 * The limits of API keys: burst + per-minute as one token bucket, per-hour and per-month as fixed windows
 * (rate-limiter-flexible counters; the month window follows the UTC calendar month). In memory by default; in Redis
 * when a URL is given (shared by every API node), with in-memory insurance that takes over while Redis is away.
 *
 * Consumption is ordered bucket → hour → month, and a refusal gives back what the earlier windows took, so a refused
 * call never counts against another window.
 */
export class Limits {
  readonly mode: 'memory' | 'redis';
  readonly redis?: Redis;
  private readonly buckets: TokenBuckets;
  private readonly hour: RateLimiterAbstract;
  private readonly month: RateLimiterAbstract;
  private readonly now: () => number;
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(private readonly opts: LimitsOptions = {}) {
    this.now = opts.now ?? Date.now;
    const prefix = opts.prefix ?? 'docflow:rl:';
    const memBuckets = new MemoryTokenBuckets(this.now);
    const memHour = new RateLimiterMemory({ points: UNBOUNDED, duration: HOUR, keyPrefix: 'h' });
    const memMonth = new RateLimiterMemory({ points: UNBOUNDED, duration: MAX_MEMORY_WINDOW_SEC, keyPrefix: 'm' });
    if (!opts.redisUrl) {
      this.mode = 'memory';
      this.buckets = memBuckets;
      this.hour = memHour;
      this.month = memMonth;
      return;
    }
    this.mode = 'redis';
    const onError = opts.onRedisError ?? (() => undefined);
    this.redis = new Redis(opts.redisUrl, {
      enableOfflineQueue: false, // no queueing while disconnected: fail at once, the insurance answers
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.redis.on('error', onError);
    this.buckets = new RedisTokenBuckets(this.redis, `${prefix}b:`, memBuckets, onError);
    const common = { storeClient: this.redis, points: UNBOUNDED, rejectIfRedisNotReady: true };
    this.hour = new RateLimiterRedis({ ...common, duration: HOUR, keyPrefix: `${prefix}h`, insuranceLimiter: memHour });
    this.month = new RateLimiterRedis({
      ...common,
      duration: MAX_MEMORY_WINDOW_SEC,
      keyPrefix: `${prefix}m`,
      insuranceLimiter: memMonth,
    });
  }

  /** Count one call of `keyId` against its limits, or refuse it without counting it anywhere. */
  async consume(keyId: string, limits: RateLimits): Promise<LimitDecision> {
    const now = this.now();
    const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
    const perMinute = limits.maxRequestsPerMinute;
    const month = monthBounds(now);
    const monthKey = `${keyId}:${month.id}`;
    const monthDuration = Math.min(MAX_MEMORY_WINDOW_SEC, Math.ceil((month.end - now) / 1000));
    const monthResetSec = Math.max(1, Math.ceil((month.end - now) / 1000));
    const fullInSec = (tokens: number) => Math.ceil(((capacity - tokens) * 60) / perMinute);

    const bucket = await this.buckets.take(keyId, capacity, perMinute, 1);
    if (!bucket.allowed) {
      const retry = Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / perMinute));
      const [h, m] = await Promise.all([this.peekWindow(this.hour, keyId), this.peekWindow(this.month, monthKey)]);
      return this.decide(limits, {
        refused: 'minute',
        retry,
        minute: { remaining: 0, reset: fullInSec(bucket.tokens), limit: capacity },
        hour: {
          remaining: Math.max(0, limits.maxRequestsPerHour - (h?.consumedPoints ?? 0)),
          reset: secs(h?.msBeforeNext ?? HOUR * 1000),
        },
        month: { remaining: Math.max(0, limits.maxRequestsPerMonth - (m?.consumedPoints ?? 0)), reset: monthResetSec },
        monthUsed: m?.consumedPoints ?? 0,
      });
    }
    const giveBackBucket = () => this.buckets.take(keyId, capacity, perMinute, -1);

    const h = await this.hour.consume(keyId, 1);
    if (h.consumedPoints > limits.maxRequestsPerHour) {
      await Promise.all([this.hour.reward(keyId, 1), giveBackBucket()]);
      const m = await this.peekWindow(this.month, monthKey);
      const reset = secs(h.msBeforeNext);
      return this.decide(limits, {
        refused: 'hour',
        retry: reset,
        minute: { remaining: Math.floor(bucket.tokens + 1), reset: fullInSec(bucket.tokens + 1), limit: capacity },
        hour: { remaining: 0, reset },
        month: { remaining: Math.max(0, limits.maxRequestsPerMonth - (m?.consumedPoints ?? 0)), reset: monthResetSec },
        monthUsed: m?.consumedPoints ?? 0,
      });
    }

    let m = await this.month.consume(monthKey, 1, { customDuration: monthDuration });
    if (m.consumedPoints === 1 && this.opts.monthUsedBefore)
      m = await this.seedMonth(keyId, monthKey, month.start, monthDuration, m);
    if (m.consumedPoints > limits.maxRequestsPerMonth) {
      await Promise.all([
        this.month.reward(monthKey, 1, { customDuration: monthDuration }),
        this.hour.reward(keyId, 1),
        giveBackBucket(),
      ]);
      return this.decide(limits, {
        refused: 'month',
        retry: monthResetSec,
        minute: { remaining: Math.floor(bucket.tokens + 1), reset: fullInSec(bucket.tokens + 1), limit: capacity },
        hour: {
          remaining: Math.max(0, limits.maxRequestsPerHour - (h.consumedPoints - 1)),
          reset: secs(h.msBeforeNext),
        },
        month: { remaining: 0, reset: monthResetSec },
        monthUsed: m.consumedPoints - 1,
      });
    }
    return this.decide(limits, {
      minute: { remaining: Math.floor(bucket.tokens), reset: fullInSec(bucket.tokens), limit: capacity },
      hour: { remaining: Math.max(0, limits.maxRequestsPerHour - h.consumedPoints), reset: secs(h.msBeforeNext) },
      month: { remaining: Math.max(0, limits.maxRequestsPerMonth - m.consumedPoints), reset: monthResetSec },
      monthUsed: m.consumedPoints,
    });
  }

  /** The state of a key's windows without counting a call (for the headers of answers refused before the limits). */
  async peek(keyId: string, limits: RateLimits): Promise<LimitDecision> {
    const now = this.now();
    const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
    const month = monthBounds(now);
    const [bucket, h, m] = await Promise.all([
      this.buckets.take(keyId, capacity, limits.maxRequestsPerMinute, 0),
      this.peekWindow(this.hour, keyId),
      this.peekWindow(this.month, `${keyId}:${month.id}`),
    ]);
    return this.decide(limits, {
      minute: {
        remaining: Math.floor(bucket.tokens),
        reset: Math.ceil(((capacity - bucket.tokens) * 60) / limits.maxRequestsPerMinute),
        limit: capacity,
      },
      hour: {
        remaining: Math.max(0, limits.maxRequestsPerHour - (h?.consumedPoints ?? 0)),
        reset: secs(h?.msBeforeNext ?? HOUR * 1000),
      },
      month: {
        remaining: Math.max(0, limits.maxRequestsPerMonth - (m?.consumedPoints ?? 0)),
        reset: Math.max(1, Math.ceil((month.end - now) / 1000)),
      },
      monthUsed: m?.consumedPoints ?? 0,
    });
  }

  /** A month counter was just created (first call of the month here, restart, expiry, failover): add what the rollups know. */
  private async seedMonth(
    keyId: string,
    monthKey: string,
    monthStart: number,
    duration: number,
    fresh: RateLimiterRes,
  ): Promise<RateLimiterRes> {
    let pending = this.seeding.get(monthKey);
    if (!pending) {
      pending = (async () => {
        const before = await this.opts.monthUsedBefore!(keyId, new Date(monthStart)).catch(() => 0);
        if (before > 0) await this.month.penalty(monthKey, before, { customDuration: duration });
      })().finally(() => this.seeding.delete(monthKey));
      this.seeding.set(monthKey, pending);
    }
    await pending;
    return (await this.peekWindow(this.month, monthKey)) ?? fresh;
  }

  private async peekWindow(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
    try {
      return await limiter.get(key);
    } catch {
      return null;
    }
  }

  private decide(
    limits: RateLimits,
    d: {
      refused?: LimitWindow;
      retry?: number;
      minute: { remaining: number; reset: number; limit: number };
      hour: { remaining: number; reset: number };
      month: { remaining: number; reset: number };
      monthUsed: number;
    },
  ): LimitDecision {
    const windows: Array<{ w: LimitWindow; limit: number; remaining: number; reset: number }> = [
      { w: 'minute', limit: d.minute.limit, remaining: d.minute.remaining, reset: d.minute.reset },
      { w: 'hour', limit: limits.maxRequestsPerHour, remaining: d.hour.remaining, reset: d.hour.reset },
      { w: 'month', limit: limits.maxRequestsPerMonth, remaining: d.month.remaining, reset: d.month.reset },
    ];
    // The headers speak of the window closest to refusing (the refusing one when refused).
    const shown = d.refused
      ? windows.find((x) => x.w === d.refused)!
      : windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    const burst =
      limits.burstLimit !== null && limits.burstLimit !== limits.maxRequestsPerMinute
        ? `;burst=${limits.burstLimit}`
        : '';
    const headers: Record<string, string | number> = {
      'RateLimit-Limit': shown.limit,
      'RateLimit-Remaining': shown.remaining,
      'RateLimit-Reset': Math.max(0, shown.reset),
      'RateLimit-Policy': `${limits.maxRequestsPerMinute};w=60${burst}, ${limits.maxRequestsPerHour};w=${HOUR}, ${limits.maxRequestsPerMonth};w=${POLICY_MONTH_SEC}`,
    };
    if (d.refused) headers['Retry-After'] = Math.max(1, d.retry ?? 1);
    return {
      allowed: !d.refused,
      window: d.refused,
      code: d.refused ? (d.refused === 'month' ? 'QUOTA_EXCEEDED' : 'RATE_LIMIT_EXCEEDED') : undefined,
      retryAfterSec: d.refused ? Math.max(1, d.retry ?? 1) : undefined,
      remaining: { minute: d.minute.remaining, hour: d.hour.remaining, month: d.month.remaining },
      monthUsed: d.monthUsed,
      headers,
    };
  }

  async close(): Promise<void> {
    if (this.redis) {
      this.redis.removeAllListeners('error');
      this.redis.on('error', () => undefined);
      this.redis.disconnect();
    }
  }
}

const secs = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
