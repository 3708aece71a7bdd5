/**
 * Token buckets for the burst + per-minute limit: capacity `burstLimit` (or the per-minute figure), refilled
 * continuously at `maxRequestsPerMinute` tokens per 60 s. rate-limiter-flexible only has fixed windows, so the bucket is
 * ours: a Map here; in Redis the same arithmetic runs inside the one limits script (redis-limits.ts).
 */
export interface BucketResult {
  allowed: boolean;
  /** Tokens left after this take (fractional). */
  tokens: number;
}

interface Slot {
  tokens: number;
  at: number;
}

export class MemoryTokenBuckets {
  private readonly slots = new Map<string, Slot>();
  private lastPrune = Date.now();

  constructor(private readonly now: () => number = Date.now) {}

  /** Take `cost` tokens if there are enough; a negative cost gives tokens back (capped at capacity). */
  take(key: string, capacity: number, perMinute: number, cost = 1): Promise<BucketResult> {
    return Promise.resolve(this.takeSync(key, capacity, perMinute, cost));
  }

  takeSync(key: string, capacity: number, perMinute: number, cost = 1): BucketResult {
    const now = this.now();
    const rate = perMinute / 60_000;
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { tokens: capacity, at: now };
      this.slots.set(key, slot);
    } else if (now > slot.at) {
      slot.tokens = Math.min(capacity, slot.tokens + (now - slot.at) * rate);
      slot.at = now;
    }
    let allowed = true;
    if (cost < 0) slot.tokens = Math.min(capacity, slot.tokens - cost);
    else if (slot.tokens >= cost) slot.tokens -= cost;
    else allowed = false;
    if (now - this.lastPrune > 60_000) this.prune(now);
    return { allowed, tokens: slot.tokens };
  }

  /** A bucket idle for 10 minutes is full again at any figure we allow (>= 1/min refill of small capacities aside): forget it. */
  private prune(now: number): void {
    this.lastPrune = now;
    for (const [k, s] of this.slots) if (now - s.at > 600_000) this.slots.delete(k);
  }
}
