import type { Redis } from 'ioredis';

/**
 * Token buckets for the burst + per-minute limit: capacity `burstLimit` (or the per-minute figure), refilled
 * continuously at `maxRequestsPerMinute` tokens per 60 s. rate-limiter-flexible only has fixed windows, so the bucket is
 * ours: a Map in memory, a Lua script in Redis (atomic across API nodes, timed by the Redis clock).
 */
export interface BucketResult {
  allowed: boolean;
  /** Tokens left after this take (fractional). */
  tokens: number;
}

export interface TokenBuckets {
  /** Take `cost` tokens if there are enough; a negative cost gives tokens back (capped at capacity). */
  take(key: string, capacity: number, perMinute: number, cost?: number): Promise<BucketResult>;
}

interface Slot {
  tokens: number;
  at: number;
}

export class MemoryTokenBuckets implements TokenBuckets {
  private readonly slots = new Map<string, Slot>();
  private lastPrune = Date.now();

  constructor(private readonly now: () => number = Date.now) {}

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

// KEYS[1] bucket; ARGV capacity, tokens per ms, cost. Returns {allowed, tokens as text}.
const LUA = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tk', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if tokens == nil or ts == nil then
  tokens = cap
  ts = now
elseif now > ts then
  tokens = math.min(cap, tokens + (now - ts) * rate)
  ts = now
end
local allowed = 1
if cost < 0 then
  tokens = math.min(cap, tokens - cost)
elseif tokens >= cost then
  tokens = tokens - cost
else
  allowed = 0
end
redis.call('HSET', KEYS[1], 'tk', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate) + 1000)
return {allowed, tostring(tokens)}
`;

type WithBucket = Redis & {
  dfTokenBucket(key: string, cap: string, rate: string, cost: string): Promise<[number, string]>;
};

/** Redis buckets; when Redis is down or slow the in-memory insurance buckets answer instead (never an error). */
export class RedisTokenBuckets implements TokenBuckets {
  private readonly redis: WithBucket;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly insurance: MemoryTokenBuckets,
    private readonly onError: (err: unknown) => void,
  ) {
    if (typeof (redis as unknown as { dfTokenBucket?: unknown }).dfTokenBucket !== 'function')
      redis.defineCommand('dfTokenBucket', { numberOfKeys: 1, lua: LUA });
    this.redis = redis as WithBucket;
  }

  async take(key: string, capacity: number, perMinute: number, cost = 1): Promise<BucketResult> {
    if (this.redis.status !== 'ready') return this.insurance.take(key, capacity, perMinute, cost);
    try {
      const [allowed, tokens] = await this.redis.dfTokenBucket(
        `${this.prefix}${key}`,
        String(capacity),
        String(perMinute / 60_000),
        String(cost),
      );
      return { allowed: allowed === 1, tokens: Number(tokens) };
    } catch (err) {
      this.onError(err);
      return this.insurance.take(key, capacity, perMinute, cost);
    }
  }
}
