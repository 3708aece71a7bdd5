import { HOUR_SEC, monthBounds } from './decide';
import type { RedisLimits } from './redis-limits';
import type { LimitReceipt, LimitStore, RateLimits, WindowCounts } from './types';

/** Calls a node reserved for one subject and has not used yet, with the windows as Redis counted them. */
interface Lease {
  left: number;
  limits: RateLimits;
  key: string;
  monthId: string;
  /** Redis's figures after the last reservation (reserved calls included). */
  tokens: number;
  hourCount: number;
  hourEndsAt: number;
  monthCount: number;
  expiresAt: number;
  /** The next lease, while asked. */
  refilling: Promise<void> | null;
}

export interface LeaseOptions {
  /** Calls reserved at once at most. */
  max: number;
  /** Reserved calls not used within this time go back to Redis (ms). */
  ttlMs: number;
}

/** Two figures of one hour window's end, taken a few ms apart from Redis's TTL. */
const sameHour = (a: number, b: number) => Math.abs(a - b) < 60_000;

const limitsKey = (l: RateLimits) =>
  `${l.maxRequestsPerMinute}/${l.burstLimit}/${l.maxRequestsPerHour}/${l.maxRequestsPerMonth}`;

/**
 * Calls counted in Redis ahead of time, so that most calls of a busy key are decided on this node without a round trip.
 * When a call needs Redis, the script counts up to a lease of calls at once (each window must keep four times as
 * many left, so near a limit the lease is one call and every call goes to Redis). The calls this node then makes use
 * the lease, and a new lease is asked in the background once half is used. Calls a lease holds and nobody made go
 * back to Redis after `ttlMs` (checked every `ttlMs`), when the limits of the key change, and at close.
 *
 * A lease is never larger than a tenth of the minute's capacity, a hundredth of the hour's limit or a thousandth of
 * the month's, so small plans count every call in Redis as before. On one node the decisions are those of the Redis
 * store: a reserved call is a counted call. Across nodes, the calls one node reserved and has not made yet are not
 * available to another until they go back (within two `ttlMs`): a limit can refuse a few calls early, never let one
 * through late.
 */
export class LeasedLimits implements LimitStore {
  private readonly leases = new Map<string, Lease>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisLimits,
    private readonly opts: LeaseOptions,
  ) {
    this.sweep = setInterval(() => void this.expire(Date.now()), opts.ttlMs);
    this.sweep.unref();
  }

  /** How many calls to reserve at once for these limits (1: none ahead). */
  size(limits: RateLimits): number {
    const cap = limits.burstLimit ?? limits.maxRequestsPerMinute;
    return Math.max(
      1,
      Math.min(
        this.opts.max,
        Math.floor(cap / 10),
        Math.floor(limits.maxRequestsPerHour / 100),
        Math.floor(limits.maxRequestsPerMonth / 1000),
      ),
    );
  }

  async consume(subject: string, limits: RateLimits, now: number): Promise<WindowCounts> {
    let lease = this.live(subject, limits, now);
    // Run out while the next lease is on its way: wait for it rather than ask Redis a second time.
    if (lease && lease.left === 0 && lease.refilling) {
      await lease.refilling;
      lease = this.live(subject, limits, now);
    }
    const size = this.size(limits);
    if (lease && lease.left > 0) {
      lease.left--;
      if (lease.left <= size / 2) this.refill(subject, lease, now);
      return view(lease, now);
    }
    if (size <= 1) return this.redis.consume(subject, limits, now);
    const got = await this.redis.consume(subject, limits, now, size);
    if (got.refused || !got.counted || got.counted <= 1) return got;
    // This call takes one; the others wait on this node for its next calls. The figures are the lease's: a refill
    // that came back meanwhile holds calls of its own.
    this.keep(subject, limits, got, got.counted - 1, now);
    const kept = this.leases.get(subject);
    return kept ? { ...view(kept, now), hourResetMs: got.hourResetMs } : got;
  }

  async peek(subject: string, limits: RateLimits, now: number): Promise<WindowCounts> {
    const counts = await this.redis.peek(subject, limits, now);
    const lease = this.live(subject, limits, now);
    if (!lease?.left) return counts;
    return {
      ...counts,
      tokens: counts.tokens + lease.left,
      hourCount: Math.max(0, counts.hourCount - lease.left),
      monthCount: Math.max(0, counts.monthCount - lease.left),
    };
  }

  /** A failed call goes back into this node's lease when it has one for the same windows, else to Redis. */
  async refund(receipt: LimitReceipt, limits: RateLimits, now: number): Promise<WindowCounts> {
    const lease = this.live(receipt.subject, limits, now);
    if (lease && lease.monthId === receipt.monthId && sameHour(lease.hourEndsAt, receipt.hourEndsAt)) {
      lease.left++;
      return view(lease, now);
    }
    return this.redis.refund(receipt, limits, now);
  }

  /** Give back every reserved call (the server stops). */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.expire(Infinity);
  }

  /** The subject's lease if still good for these limits now; one that is not goes back to Redis. */
  private live(subject: string, limits: RateLimits, now: number): Lease | undefined {
    const lease = this.leases.get(subject);
    if (!lease) return undefined;
    if (
      lease.key === limitsKey(limits) &&
      lease.monthId === monthBounds(now).id &&
      now < lease.expiresAt &&
      now < lease.hourEndsAt
    )
      return lease;
    this.leases.delete(subject);
    void this.giveBack(subject, lease, now);
    return undefined;
  }

  /** Add `extra` reserved calls to the subject's lease (or start one), with Redis's latest figures. */
  private keep(subject: string, limits: RateLimits, got: WindowCounts, extra: number, now: number): void {
    const hourEndsAt = now + (got.hourResetMs ?? HOUR_SEC * 1000);
    const lease = this.live(subject, limits, now);
    if (lease && sameHour(lease.hourEndsAt, hourEndsAt)) {
      lease.left += extra;
      if (got.hourCount >= lease.hourCount) Object.assign(lease, pick(got));
      lease.expiresAt = now + this.opts.ttlMs;
      return;
    }
    if (lease) {
      this.leases.delete(subject);
      void this.giveBack(subject, lease, now);
    }
    this.leases.set(subject, {
      left: extra,
      limits,
      key: limitsKey(limits),
      monthId: monthBounds(now).id,
      ...pick(got),
      hourEndsAt,
      expiresAt: now + this.opts.ttlMs,
      refilling: null,
    });
  }

  /** The next lease, asked while this one still has calls: the calls of this node do not wait for it. */
  private refill(subject: string, lease: Lease, now: number): void {
    if (lease.refilling) return;
    lease.refilling = this.redis
      .consume(subject, lease.limits, now, this.size(lease.limits))
      .then((got) => {
        lease.refilling = null;
        // Refused (a window is full): nothing was counted; the lease runs out and the next call asks Redis itself.
        if (got.refused || !got.counted) return;
        this.keep(subject, lease.limits, got, got.counted, Date.now());
      })
      .catch(() => {
        lease.refilling = null;
      });
  }

  private async giveBack(subject: string, lease: Lease, now: number): Promise<void> {
    if (lease.left <= 0) return;
    const n = lease.left;
    lease.left = 0;
    const receipt = { subject, monthId: lease.monthId, hourEndsAt: lease.hourEndsAt };
    await this.redis.refund(receipt, lease.limits, Math.min(now, Date.now()), n).catch(() => undefined);
  }

  private async expire(now: number): Promise<void> {
    const due: Array<Promise<void>> = [];
    for (const [subject, lease] of this.leases) {
      if (now < lease.expiresAt) continue;
      this.leases.delete(subject);
      due.push(this.giveBack(subject, lease, now));
    }
    await Promise.all(due);
  }
}

const pick = (c: WindowCounts) => ({ tokens: c.tokens, hourCount: c.hourCount, monthCount: c.monthCount });

/** The windows as this node's next call sees them: the calls still reserved are not used yet. */
function view(lease: Lease, now: number): WindowCounts {
  return {
    tokens: lease.tokens + lease.left,
    hourCount: lease.hourCount - lease.left,
    hourResetMs: Math.max(1, lease.hourEndsAt - now),
    monthCount: lease.monthCount - lease.left,
  };
}
