import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../lib/app-error';

export interface IpQuota {
  /** Calls allowed per IP per window. */
  points: number;
  windowSeconds: number;
  /** What was refused, for the message ("sign-ups", "e-mails"). */
  what: string;
}

export interface IpQuotas<K extends string> {
  /** Count one call of `kind` from `ip`; past the quota, 429 RATE_LIMIT_EXCEEDED with Retry-After, nothing done. */
  take(kind: K, ip: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Per-IP quotas on the unauthenticated calls that create things or send mail (sign-up, password reset, verification
 * resend): one address cannot fill the database with accounts or use the server to mail-bomb. Counted in Redis when
 * one is given (shared by every API node), with memory insurance, else in memory.
 */
export function createIpQuotas<K extends string>(
  quotas: Record<K, IpQuota>,
  opts: { redisUrl?: string; prefix?: string } = {},
): IpQuotas<K> {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : undefined;
  redis?.on('error', () => undefined); // the memory insurance answers meanwhile
  const limiters = new Map<K, RateLimiterAbstract>();
  for (const [kind, q] of Object.entries(quotas) as Array<[K, IpQuota]>) {
    const base = { keyPrefix: `${opts.prefix ?? 'docflow'}:ipq_${kind}`, points: q.points, duration: q.windowSeconds };
    const memory = new RateLimiterMemory(base);
    limiters.set(
      kind,
      redis
        ? new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: memory, rejectIfRedisNotReady: true })
        : memory,
    );
  }
  return {
    async take(kind, ip) {
      try {
        await limiters.get(kind)!.consume(ip, 1);
      } catch (res) {
        if (res instanceof Error) throw res;
        const seconds = Math.max(1, Math.ceil((res as { msBeforeNext: number }).msBeforeNext / 1000));
        const minutes = Math.ceil(seconds / 60);
        throw new AppError(
          'RATE_LIMIT_EXCEEDED',
          `Too many ${quotas[kind].what} from this address. Try again in ${minutes} minute${minutes > 1 ? 's' : ''}.`,
          {
            headers: { 'Retry-After': seconds },
            details: { retryAfterSeconds: seconds },
          },
        );
      }
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
