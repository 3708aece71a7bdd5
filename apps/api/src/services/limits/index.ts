import type { Redis } from 'ioredis';
import { decide, HOUR_SEC, monthBounds } from './decide';
import { LeasedLimits } from './leased-limits';
import { MemoryLimits } from './memory-limits';
import { RedisLimits } from './redis-limits';
import type { LimitDecision, LimitReceipt, LimitStore, MonthUsedBefore, RateLimits } from './types';

export type { LimitDecision, LimitReceipt, LimitWindow, RateLimits } from './types';

export interface LimitsOptions {
  redisUrl?: string;
  /** Redis key prefix (default `docflow:rl:`). */
  prefix?: string;
  /**
   * Requests of `subject` (a limit subject id, subject.ts) already counted this month (from the usage rollups). Asked
   * whenever a month counter is (re)created, so a restart, a Redis outage or an evicted counter does not hand out a
   * fresh quota.
   */
  monthUsedBefore?: MonthUsedBefore;
  onRedisError?: (err: unknown) => void;
  now?: () => number;
  /**
   * With Redis: calls a node may count ahead for one key and decide without a round trip (leased-limits.ts); 1 (the
   * default here; the server's REDIS_LIMIT_LEASE is 32): every call goes to Redis.
   */
  lease?: number;
}

/**
 * The limits of API keys, counted per limit subject (the user's subscription to a plan, or a custom key: subject.ts):
 * burst + per-minute as one token bucket, per-hour and per-month as fixed windows (the month window follows the UTC
 * calendar month). In memory by default (memory-limits.ts); in Redis when a URL is given
 * (redis-limits.ts, shared by every API node, one round trip per call, or per lease of calls: leased-limits.ts), with the memory store as insurance that takes
 * over while Redis is away. Either way a call is counted bucket → hour → month, a refused call counts nowhere, and
 * decide.ts turns the counts into the same decision and headers.
 */
export class Limits {
  readonly mode: 'memory' | 'redis';
  readonly redis?: Redis;
  private readonly store: LimitStore;
  private readonly leased?: LeasedLimits;
  private readonly now: () => number;

  constructor(opts: LimitsOptions = {}) {
    this.now = opts.now ?? Date.now;
    const memory = new MemoryLimits(this.now, opts.monthUsedBefore);
    if (!opts.redisUrl) {
      this.mode = 'memory';
      this.store = memory;
      return;
    }
    this.mode = 'redis';
    const store = new RedisLimits({
      url: opts.redisUrl,
      prefix: opts.prefix ?? 'docflow:rl:',
      insurance: memory,
      onError: opts.onRedisError ?? (() => undefined),
      monthUsedBefore: opts.monthUsedBefore,
    });
    this.redis = store.redis;
    if ((opts.lease ?? 1) > 1) {
      this.leased = new LeasedLimits(store, { max: opts.lease!, ttlMs: 1000 });
      this.store = this.leased;
    } else this.store = store;
  }

  /** Count one call of `subject` against its limits, or refuse it without counting it anywhere. */
  async consume(subject: string, limits: RateLimits): Promise<LimitDecision> {
    const now = this.now();
    const counts = await this.store.consume(subject, limits, now);
    const decision = decide(limits, now, counts);
    if (decision.allowed)
      decision.receipt = {
        subject,
        monthId: monthBounds(now).id,
        hourEndsAt: now + (counts.hourResetMs ?? HOUR_SEC * 1000),
      };
    return decision;
  }

  /**
   * Give back a call counted by `consume` (the server failed it: the caller did not get what it paid for). The
   * decision has the windows after the refund, for the answer's headers.
   */
  async refund(receipt: LimitReceipt, limits: RateLimits): Promise<LimitDecision> {
    const now = this.now();
    return decide(limits, now, await this.store.refund(receipt, limits, now));
  }

  /** A subject's windows without counting a call (for the headers of answers refused before the limits). */
  async peek(subject: string, limits: RateLimits): Promise<LimitDecision> {
    const now = this.now();
    return decide(limits, now, await this.store.peek(subject, limits, now));
  }

  async close(): Promise<void> {
    await this.leased?.close();
    if (this.redis) {
      this.redis.removeAllListeners('error');
      this.redis.on('error', () => undefined);
      this.redis.disconnect();
    }
  }
}
