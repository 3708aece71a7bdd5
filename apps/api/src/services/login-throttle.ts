import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../lib/app-error';
import { clientKey } from '../lib/client-address';

export interface LoginThrottleOptions {
  /** Failures allowed per account + address before a lock (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** How long that lock lasts (LOGIN_LOCK_SECONDS). */
  lockSeconds: number;
  /** Failures allowed per address per day, whatever the account (LOGIN_DAILY_IP_CAP). */
  dailyIpCap: number;
  /** Failures allowed per account per hour, from all addresses together (LOGIN_ACCOUNT_HOURLY_CAP). */
  accountHourlyCap: number;
  /** Shared counters across API nodes; without it each node counts in memory. */
  redisUrl?: string;
  /** Key namespace (tests run several throttles against one Redis). */
  keyPrefix?: string;
}

/** One password check that holds its place in every count until it is settled. */
export interface LoginAttempt {
  /** The right password: the account+address (or the device) starts again from zero; this attempt counts nowhere. */
  succeeded(): Promise<void>;
  /** A wrong password (or an unknown account): the attempt stays counted; a full account+address (or device) locks. */
  failed(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Take a place for one password check, before the check: 429 TOO_MANY_ATTEMPTS (with Retry-After) when the
   * account+address is locked, the address spent its daily failures, or the account its hourly ones. With `device`
   * (the id of a device cookie already verified for this account) only that device's own count applies.
   */
  reserve(email: string, ip: string, device?: string): Promise<LoginAttempt>;
  close(): Promise<void>;
}

/** Failures of an account+address are counted over this window unless a success clears them first. */
const FAILURE_WINDOW_SECONDS = 24 * 3600;
const DAY = 24 * 3600;
const HOUR = 3600;

const accountOf = (email: string) => email.trim().toLowerCase();

/** A limiter and the key one attempt takes a point of. */
type Count = [RateLimiterAbstract, string];

/**
 * Brute-force protection for password checks. Three counts, each taken before the password is verified (argon2
 * takes tens of ms: a check-then-record throttle lets a thousand parallel guesses through the check together, a
 * reservation lets exactly the allowed number through), and given back when the password was right:
 * - an account from one address (IPv6: its /64): LOGIN_MAX_FAILURES, then locked for LOGIN_LOCK_SECONDS; a lock
 *   never affects the account from other addresses, so a stranger cannot lock the owner out;
 * - an address, whatever the accounts: LOGIN_DAILY_IP_CAP failures a day (credential stuffing);
 * - an account, whatever the addresses: LOGIN_ACCOUNT_HOURLY_CAP failures an hour, the slow-down that a botnet
 *   spreading its guesses over many addresses meets (the owner too, while such an attack lasts: the price of a bound).
 * Those three judge untrusted clients. A device that signed in to the account before (its device cookie, verified by
 * the caller) is judged by its own count alone: LOGIN_MAX_FAILURES, then locked for LOGIN_LOCK_SECONDS. So neither
 * an attacker behind the same NAT (who fills the address's cap) nor one who knows the e-mail (who fills the account's
 * counts) locks out the account's known devices, and their guesses count nowhere a device's would.
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
  const byAccount = limiter(`${prefix}:login_fail_account_hour`, opts.accountHourlyCap, HOUR);
  const byDevice = limiter(`${prefix}:login_fail_device`, opts.maxFailures, FAILURE_WINDOW_SECONDS);

  const refuse = (res: RateLimiterRes): never => {
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      'TOO_MANY_ATTEMPTS',
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes > 1 ? 's' : ''}.`,
      { headers: { 'Retry-After': seconds }, details: { retryAfterSeconds: seconds } },
    );
  };

  return {
    async reserve(email, ip, device) {
      await firstConnection;
      const address = clientKey(ip);
      const account = accountOf(email);
      const pairKey = `${account}_${address}`;
      // The count that locks for LOGIN_LOCK_SECONDS when full and starts again from zero after a success; the
      // others give their point back after a success.
      const lock: Count = device ? [byDevice, device] : [byAccountIp, pairKey];
      const counts: Count[] = device ? [lock] : [[byIp, address], lock, [byAccount, account]];
      const taken: Count[] = [];
      try {
        for (const [l, key] of counts) {
          await l.consume(key, 1);
          taken.push([l, key]);
        }
      } catch (res) {
        // A refused attempt holds no place in the counts that had let it in.
        await Promise.all(taken.map(([l, key]) => l.reward(key, 1)));
        if (res instanceof Error) throw res;
        refuse(res as RateLimiterRes);
      }
      return {
        async succeeded() {
          await Promise.all(counts.map((c) => (c === lock ? c[0].delete(c[1]) : c[0].reward(c[1], 1))));
        },
        async failed() {
          // The lock runs from the failure that filled the count, for LOGIN_LOCK_SECONDS.
          const count = await lock[0].get(lock[1]);
          if (count && count.consumedPoints >= opts.maxFailures) await lock[0].block(lock[1], opts.lockSeconds);
        },
      };
    },

    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
