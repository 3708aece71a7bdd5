import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { HOUR_SEC, monthBounds } from './decide';
import { MemoryTokenBuckets } from './token-bucket';
import type { LimitReceipt, LimitStore, MonthUsedBefore, RateLimits, WindowCounts } from './types';

/** setTimeout (used by the memory store to expire counters) overflows past 2^31-1 ms: cap window lengths below it. */
const MAX_MEMORY_WINDOW_SEC = Math.floor((2 ** 31 - 1) / 1000) - 60;
/** The window counters never refuse by themselves: each key's own figure is compared with the count. */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * The windows in this process: the token bucket plus rate-limiter-flexible fixed windows for the hour and the month.
 * The limits of a single node, and the insurance of the Redis store while Redis is away.
 *
 * Consumption is ordered bucket → hour → month, and a refusal gives back what the earlier windows took (in memory the
 * refunds cost nothing), so a refused call never counts against another window.
 */
export class MemoryLimits implements LimitStore {
  private readonly buckets: MemoryTokenBuckets;
  private readonly hour = new RateLimiterMemory({ points: UNBOUNDED, duration: HOUR_SEC, keyPrefix: 'h' });
  private readonly month = new RateLimiterMemory({
    points: UNBOUNDED,
    duration: MAX_MEMORY_WINDOW_SEC,
    keyPrefix: 'm',
  });
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(
    now: () => number,
    private readonly monthUsedBefore?: MonthUsedBefore,
  ) {
    this.buckets = new MemoryTokenBuckets(now);
  }

  async consume(subject: string, limits: RateLimits, now: number): Promise<WindowCounts> {
    const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
    const perMinute = limits.maxRequestsPerMinute;
    const month = monthBounds(now);
    const monthKey = `${subject}:${month.id}`;
    const monthDuration = Math.min(MAX_MEMORY_WINDOW_SEC, Math.ceil((month.end - now) / 1000));

    const bucket = await this.buckets.take(subject, capacity, perMinute, 1);
    if (!bucket.allowed) {
      const [h, m] = await Promise.all([this.hour.get(subject), this.month.get(monthKey)]);
      return { refused: 'minute', tokens: bucket.tokens, ...hourOf(h), monthCount: m?.consumedPoints ?? 0 };
    }
    const giveBackBucket = () => this.buckets.take(subject, capacity, perMinute, -1);

    const h = await this.hour.consume(subject, 1);
    if (h.consumedPoints > limits.maxRequestsPerHour) {
      await Promise.all([this.hour.reward(subject, 1), giveBackBucket()]);
      const m = await this.month.get(monthKey);
      return {
        refused: 'hour',
        tokens: bucket.tokens + 1,
        hourCount: h.consumedPoints - 1,
        hourResetMs: h.msBeforeNext,
        monthCount: m?.consumedPoints ?? 0,
      };
    }

    let m = await this.month.consume(monthKey, 1, { customDuration: monthDuration });
    if (m.consumedPoints === 1 && this.monthUsedBefore)
      m = await this.seedMonth(subject, monthKey, month.start, monthDuration, m);
    if (m.consumedPoints > limits.maxRequestsPerMonth) {
      await Promise.all([
        this.month.reward(monthKey, 1, { customDuration: monthDuration }),
        this.hour.reward(subject, 1),
        giveBackBucket(),
      ]);
      return {
        refused: 'month',
        tokens: bucket.tokens + 1,
        hourCount: h.consumedPoints - 1,
        hourResetMs: h.msBeforeNext,
        monthCount: m.consumedPoints - 1,
      };
    }
    return {
      tokens: bucket.tokens,
      hourCount: h.consumedPoints,
      hourResetMs: h.msBeforeNext,
      monthCount: m.consumedPoints,
    };
  }

  async peek(subject: string, limits: RateLimits, now: number): Promise<WindowCounts> {
    const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
    const [bucket, h, m] = await Promise.all([
      this.buckets.take(subject, capacity, limits.maxRequestsPerMinute, 0),
      this.hour.get(subject),
      this.month.get(`${subject}:${monthBounds(now).id}`),
    ]);
    return { tokens: bucket.tokens, ...hourOf(h), monthCount: m?.consumedPoints ?? 0 };
  }

  async refund(receipt: LimitReceipt, limits: RateLimits, now: number): Promise<WindowCounts> {
    const { subject } = receipt;
    const capacity = limits.burstLimit ?? limits.maxRequestsPerMinute;
    const bucket = await this.buckets.take(subject, capacity, limits.maxRequestsPerMinute, -1);
    // Only windows that still hold the call, and only existing counters (a reward on a missing one would create it
    // below zero).
    const h = now < receipt.hourEndsAt ? await this.hour.get(subject) : null;
    if (h && h.consumedPoints > 0) await this.hour.reward(subject, 1);
    const monthKey = `${subject}:${receipt.monthId}`;
    const m = await this.month.get(monthKey);
    if (m && m.consumedPoints > 0) await this.month.reward(monthKey, 1);
    const [hour, month] = await Promise.all([
      this.hour.get(subject),
      this.month.get(`${subject}:${monthBounds(now).id}`),
    ]);
    return { tokens: bucket.tokens, ...hourOf(hour), monthCount: month?.consumedPoints ?? 0 };
  }

  /** A month counter was just created (first call of the month here, restart, failover): add what the rollups know. */
  private async seedMonth(
    subject: string,
    monthKey: string,
    monthStart: number,
    duration: number,
    fresh: RateLimiterRes,
  ): Promise<RateLimiterRes> {
    let pending = this.seeding.get(monthKey);
    if (!pending) {
      pending = (async () => {
        const before = await this.monthUsedBefore!(subject, new Date(monthStart)).catch(() => 0);
        if (before > 0) await this.month.penalty(monthKey, before, { customDuration: duration });
      })().finally(() => this.seeding.delete(monthKey));
      this.seeding.set(monthKey, pending);
    }
    await pending;
    return (await this.month.get(monthKey)) ?? fresh;
  }
}

const hourOf = (h: RateLimiterRes | null) => ({
  hourCount: h?.consumedPoints ?? 0,
  hourResetMs: h?.msBeforeNext ?? null,
});
