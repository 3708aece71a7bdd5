import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../lib/app-error';

export interface LoginThrottleOptions {
  /** Consecutive failures allowed per account + IP before a lock (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** How long that lock lasts (LOGIN_LOCK_SECONDS). */
  lockSeconds: number;
  /** Failures allowed per IP per day, whatever the account (LOGIN_DAILY_IP_CAP). */
  dailyIpCap: number;
  /** Shared counters across API nodes; without it each node counts in memory. */
  redisUrl?: string;
  /** Key namespace (tests run several throttles against one Redis). */
  keyPrefix?: string;
}

export interface LoginThrottle {
  /** Throws 429 TOO_MANY_ATTEMPTS (with Retry-After) when the account+IP is locked or the IP spent its daily cap. */
  assertAllowed(email: string, ip: string): Promise<void>;
  /** A wrong password (or unknown account): count it for the account+IP and the IP. */
  recordFailure(email: string, ip: string): Promise<void>;
  /** A right password: the account+IP starts again from zero (the IP's daily count stays). */
  recordSuccess(email: string, ip: string): Promise<void>;
  close(): Promise<void>;
}

/** Failures of an account+IP are counted over this window unless a success clears them first. */
const FAILURE_WINDOW_SECONDS = 24 * 3600;
const DAY = 24 * 3600;

const accountKey = (email: string, ip: string) => `${email.trim().toLowerCase()}_${ip}`;

/**
 * Brute-force protection for password checks (the "login endpoint protection" recipe of rate-limiter-flexible):
 * N consecutive failures for one account from one IP lock that pair for LOGIN_LOCK_SECONDS, and one IP may fail at
 * most LOGIN_DAILY_IP_CAP times a day across all accounts (credential stuffing). A lock never affects the account from
 * other addresses, so an attacker cannot lock the owner out.
 *
 * With REDIS_URL the counters live in Redis (shared by every API node); if Redis is unreachable an in-memory limiter
 * takes over (insuranceLimiter) rather than failing the login.
 */
export function createLoginThrottle(opts: LoginThrottleOptions): LoginThrottle {
  const prefix = opts.keyPrefix ?? 'docflow';
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : undefined;
  // Connection errors are covered by the insurance limiter; keep them out of the process's unhandled errors.
  redis?.on('error', () => undefined);
  // Calls made while Redis is not ready go to the in-memory limiter. Right after start that would split the counts
  // between memory and Redis, so the first calls wait (up to 2 s) for the first connection.
  const firstConnection = redis
    ? new Promise<void>((resolve) => {
        redis.once('ready', () => resolve());
        setTimeout(resolve, 2000).unref();
      })
    : Promise.resolve();

  const limiter = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: memory,
      rejectIfRedisNotReady: true,
    });
  };

  const byAccountIp = limiter(`${prefix}:login_fail_account_ip`, opts.maxFailures, FAILURE_WINDOW_SECONDS);
  const byIp = limiter(`${prefix}:login_fail_ip_day`, opts.dailyIpCap, DAY);

  const refuse = (res: RateLimiterRes | null, fallbackSeconds: number): never => {
    const seconds = Math.max(1, Math.ceil((res?.msBeforeNext ?? fallbackSeconds * 1000) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      'TOO_MANY_ATTEMPTS',
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes > 1 ? 's' : ''}.`,
      { headers: { 'Retry-After': seconds }, details: { retryAfterSeconds: seconds } },
    );
  };

  return {
    async assertAllowed(email, ip) {
      await firstConnection;
      const [pair, daily] = await Promise.all([byAccountIp.get(accountKey(email, ip)), byIp.get(ip)]);
      if (daily && daily.consumedPoints >= opts.dailyIpCap) refuse(daily, DAY);
      if (pair && pair.consumedPoints >= opts.maxFailures) refuse(pair, opts.lockSeconds);
    },

    async recordFailure(email, ip) {
      await firstConnection;
      const key = accountKey(email, ip);
      const [pair] = await Promise.all([
        byAccountIp.penalty(key, 1),
        byIp.penalty(ip, 1).then(async (res) => {
          if (res.consumedPoints >= opts.dailyIpCap) await byIp.block(ip, DAY);
        }),
      ]);
      // The lock runs from the last failure, for LOGIN_LOCK_SECONDS.
      if (pair.consumedPoints >= opts.maxFailures) await byAccountIp.block(key, opts.lockSeconds);
    },

    async recordSuccess(email, ip) {
      await firstConnection;
      await byAccountIp.delete(accountKey(email, ip));
    },

    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
