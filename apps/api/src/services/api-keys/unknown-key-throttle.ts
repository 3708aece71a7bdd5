import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { clientKey } from '../../lib/client-address';

export interface UnknownKeyThrottleOptions {
  /** Unknown or invalid keys one client address may present per window (default 20). */
  points?: number;
  /** Window in seconds (default 60). */
  windowSeconds?: number;
  /** Shared by every API node when given (the limits' connection), with memory insurance. */
  redis?: Redis;
  prefix?: string;
}

/**
 * Per-address count of presented keys that are not keys (malformed, unknown, deleted): past `points` in a window,
 * the address gets 429 for anything that would need a key lookup, so a flood of made-up keys costs the database
 * nothing more. Keys already cached as valid keep working from a blocked address (a NAT shared with an abuser).
 * IPv6 clients are counted per /64, the block one subscriber usually holds.
 */
export class UnknownKeyThrottle {
  private readonly limiter: RateLimiterAbstract;
  readonly points: number;

  constructor(opts: UnknownKeyThrottleOptions = {}) {
    this.points = opts.points ?? 20;
    const base = {
      keyPrefix: `${opts.prefix ?? 'docflow:'}unknown-key`,
      points: this.points,
      duration: opts.windowSeconds ?? 60,
    };
    const memory = new RateLimiterMemory(base);
    this.limiter = opts.redis
      ? new RateLimiterRedis({
          ...base,
          storeClient: opts.redis,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
  }

  /** Seconds until `ip` may present unknown keys again; 0 when it may now. */
  async retryAfter(ip: string): Promise<number> {
    const res = await this.limiter.get(clientKey(ip)).catch(() => null);
    if (!res || res.consumedPoints < this.points) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Count one unknown or invalid key from `ip`. */
  async record(ip: string): Promise<void> {
    await this.limiter.penalty(clientKey(ip), 1).catch(() => undefined);
  }
}
