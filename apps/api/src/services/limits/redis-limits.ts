import { Redis } from 'ioredis';
import { HOUR_SEC, monthBounds } from './decide';
import type { LimitReceipt, LimitStore, LimitWindow, MonthUsedBefore, RateLimits, WindowCounts } from './types';

/** How long a node keeps a month's seed after asking for it (the counter exists by then). */
const SEED_KEPT_MS = 60_000;

/**
 * All three windows of one call in one script, so a call is one round trip and atomic across API nodes: the bucket
 * (timed by the Redis clock, so nodes with skewed clocks agree), then the hour fixed window, then the month counter.
 * A refusal returns before any write, so nothing needs giving back.
 *
 * KEYS: 1 bucket (hash tk/ts), 2 hour counter, 3 month counter (one key per UTC month).
 * ARGV: 1 capacity, 2 refill in tokens per ms, 3 hour limit, 4 month limit, 5 month end (unix ms), 6 '1' to count a
 *       call or '0' to peek, 7 the count a month counter created now starts from, or '?' to let the caller seed it,
 *       8 how many calls to count at most (a node's lease, leased-limits.ts): the first decides as a single call
 *       would, the others are taken only where every window has at least four times as many left.
 * Returns {status, tokens (text: fractional), hour count, hour ms to reset (< 0: no window), month count, calls counted};
 * status 0 allowed, 1/2/3 refused by bucket/hour/month, 4 month counter missing: nothing done, seed and call again.
 *
 * The key names are those rate-limiter-flexible used (`<prefix>h:<key>`, `<prefix>m:<key>:<month>`, plain integer
 * counters), so nodes of the previous release share the counters during a rolling deploy. One Redis, not Cluster:
 * the three keys of a call would need one hash slot.
 */
/** Both scripts start by reading the bucket (KEYS[1]) and Redis's clock; ARGV 1 and 2 are its capacity and refill. */
const READ_BUCKET = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local b = redis.call('HMGET', KEYS[1], 'tk', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
`;

const LUA = `${READ_BUCKET}if tokens == nil or ts == nil then
  tokens = cap
  ts = now
elseif now > ts then
  tokens = math.min(cap, tokens + (now - ts) * rate)
  ts = now
end
local hour = tonumber(redis.call('GET', KEYS[2]) or '0')
local hourTtl = redis.call('PTTL', KEYS[2])
local month = redis.call('GET', KEYS[3])
local monthCount = tonumber(month or '0')

if ARGV[6] ~= '1' then
  return {0, tostring(tokens), hour, hourTtl, monthCount}
end
if tokens < 1 then
  return {1, tostring(tokens), hour, hourTtl, monthCount}
end
if hour >= tonumber(ARGV[3]) then
  return {2, tostring(tokens), hour, hourTtl, monthCount}
end
if not month then
  if ARGV[7] == '?' then
    return {4, tostring(tokens), hour, hourTtl, monthCount}
  end
  monthCount = tonumber(ARGV[7])
  redis.call('SET', KEYS[3], monthCount)
  -- At the month end (the API node's clock); at least a minute, so a node clock behind Redis cannot expire it at once.
  redis.call('PEXPIREAT', KEYS[3], math.max(tonumber(ARGV[5]), now + 60000))
end
if monthCount >= tonumber(ARGV[4]) then
  return {3, tostring(tokens), hour, hourTtl, monthCount}
end

local n = math.min(tonumber(ARGV[8] or '1'), math.floor(tokens / 4), math.floor((tonumber(ARGV[3]) - hour) / 4),
  math.floor((tonumber(ARGV[4]) - monthCount) / 4))
if n < 1 then
  n = 1
end
tokens = tokens - n
redis.call('HSET', KEYS[1], 'tk', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate) + 1000)
hour = redis.call('INCRBY', KEYS[2], n)
if hourTtl < 0 then
  hourTtl = ${HOUR_SEC * 1000}
  redis.call('PEXPIRE', KEYS[2], hourTtl)
end
monthCount = redis.call('INCRBY', KEYS[3], n)
return {0, tostring(tokens), hour, hourTtl, monthCount, n}
`;

/**
 * Give back counted calls (the server failed one, or a lease ended unused), in one round trip: bucket tokens (capped
 * at capacity), as many from the hour window when it is still the one the calls went into, and from the month counter
 * of the calls. Counters that are gone stay gone (never below zero, never recreated).
 *
 * KEYS: 1 bucket, 2 hour counter, 3 month counter of the call, 4 month counter of now (for the answer's figures).
 * ARGV: 1 capacity, 2 refill in tokens per ms, 3 '1' when the call's hour window is still open, 4 how many calls.
 * Returns the limits script's reply for a peek after the refund.
 */
const REFUND_LUA = `${READ_BUCKET}local n = tonumber(ARGV[4] or '1')
if tokens == nil or ts == nil then
  tokens = cap
else
  if now > ts then
    tokens = tokens + (now - ts) * rate
    ts = now
  end
  tokens = math.min(cap, tokens + n)
  redis.call('HSET', KEYS[1], 'tk', tostring(tokens), 'ts', tostring(ts))
end
local counted = tonumber(redis.call('GET', KEYS[2]) or '0')
if ARGV[3] == '1' and counted > 0 then
  redis.call('DECRBY', KEYS[2], math.min(n, counted))
end
counted = tonumber(redis.call('GET', KEYS[3]) or '0')
if counted > 0 then
  redis.call('DECRBY', KEYS[3], math.min(n, counted))
end
local hour = tonumber(redis.call('GET', KEYS[2]) or '0')
local hourTtl = redis.call('PTTL', KEYS[2])
local monthCount = tonumber(redis.call('GET', KEYS[4]) or '0')
return {0, tostring(tokens), hour, hourTtl, monthCount}
`;

type Reply = [status: number, tokens: string, hourCount: number, hourTtlMs: number, monthCount: number, n?: number];
type LimitsRedis = Redis & {
  docflowLimits(bucket: string, hour: string, month: string, ...argv: string[]): Promise<Reply>;
  docflowRefund(bucket: string, hour: string, month: string, currentMonth: string, ...argv: string[]): Promise<Reply>;
};

const REFUSED: Array<LimitWindow | undefined> = [undefined, 'minute', 'hour', 'month'];
const UNSEEDED = 4;

export interface RedisLimitsOptions {
  url: string;
  /** Key prefix, e.g. `docflow:rl:`. */
  prefix: string;
  /** Answers while Redis is not ready or a command fails. */
  insurance: LimitStore;
  onError: (err: unknown) => void;
  monthUsedBefore?: MonthUsedBefore;
}

/** The windows in Redis, shared by every API node: one script call per consume or peek (two when seeding a month). */
export class RedisLimits implements LimitStore {
  readonly redis: Redis;
  private readonly script: LimitsRedis;
  private readonly seeding = new Map<string, Promise<number>>();

  constructor(private readonly opts: RedisLimitsOptions) {
    this.redis = new Redis(opts.url, {
      enableOfflineQueue: false, // no queueing while disconnected: fail at once, the insurance answers
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.redis.on('error', opts.onError);
    // EVALSHA, with the script sent once per connection (and again after a NOSCRIPT) by ioredis.
    this.redis.defineCommand('docflowLimits', { numberOfKeys: 3, lua: LUA });
    this.redis.defineCommand('docflowRefund', { numberOfKeys: 4, lua: REFUND_LUA });
    this.script = this.redis as LimitsRedis;
  }

  /** `n`: count up to that many calls at once (a lease); `counted` says how many were (1 from the insurance). */
  async consume(subject: string, limits: RateLimits, now: number, n = 1): Promise<WindowCounts & { counted?: number }> {
    if (this.redis.status !== 'ready') return this.opts.insurance.consume(subject, limits, now);
    try {
      // With rollups to seed from, a missing month counter comes back untouched (status 4) rather than starting at 0.
      let r = await this.run(subject, limits, now, true, this.opts.monthUsedBefore ? '?' : '0', n);
      if (r[0] === UNSEEDED)
        r = await this.run(subject, limits, now, true, String(await this.monthSeed(subject, now)), n);
      return { ...counts(r), counted: r[5] ?? 1 };
    } catch (err) {
      this.opts.onError(err);
      return this.opts.insurance.consume(subject, limits, now);
    }
  }

  async peek(subject: string, limits: RateLimits, now: number): Promise<WindowCounts> {
    if (this.redis.status !== 'ready') return this.opts.insurance.peek(subject, limits, now);
    try {
      return counts(await this.run(subject, limits, now, false, '0'));
    } catch (err) {
      this.opts.onError(err);
      return this.opts.insurance.peek(subject, limits, now);
    }
  }

  /** `n`: give back that many calls of the same windows (a lease's unused calls). */
  async refund(receipt: LimitReceipt, limits: RateLimits, now: number, n = 1): Promise<WindowCounts> {
    if (this.redis.status !== 'ready')
      return n === 1 ? this.opts.insurance.refund(receipt, limits, now) : this.peek(receipt.subject, limits, now);
    const p = this.opts.prefix;
    const { subject } = receipt;
    try {
      return counts(
        await this.script.docflowRefund(
          `${p}b:${subject}`,
          `${p}h:${subject}`,
          `${p}m:${subject}:${receipt.monthId}`,
          `${p}m:${subject}:${monthBounds(now).id}`,
          String(limits.burstLimit ?? limits.maxRequestsPerMinute),
          String(limits.maxRequestsPerMinute / 60_000),
          now < receipt.hourEndsAt ? '1' : '0',
          String(n),
        ),
      );
    } catch (err) {
      this.opts.onError(err);
      return this.opts.insurance.peek(subject, limits, now);
    }
  }

  private run(subject: string, limits: RateLimits, now: number, count: boolean, seed: string, n = 1): Promise<Reply> {
    const p = this.opts.prefix;
    const month = monthBounds(now);
    return this.script.docflowLimits(
      `${p}b:${subject}`,
      `${p}h:${subject}`,
      `${p}m:${subject}:${month.id}`,
      String(limits.burstLimit ?? limits.maxRequestsPerMinute),
      String(limits.maxRequestsPerMinute / 60_000),
      String(limits.maxRequestsPerHour),
      String(limits.maxRequestsPerMonth),
      String(month.end),
      count ? '1' : '0',
      seed,
      String(n),
    );
  }

  /**
   * What the rollups counted this month, asked once per node however many calls find the counter missing at once;
   * the script only uses it if no other node created the counter meanwhile. A failing database seeds 0, as before.
   */
  private monthSeed(subject: string, now: number): Promise<number> {
    const month = monthBounds(now);
    const k = `${subject}:${month.id}`;
    let pending = this.seeding.get(k);
    if (!pending) {
      pending = this.opts.monthUsedBefore!(subject, new Date(month.start))
        .then((n) => Math.max(0, Math.trunc(n)) || 0)
        .catch(() => 0)
        // Kept a while after it settles: the calls it answered still have their seeded run to make, and a call
        // finding the counter missing in between must not ask again (on a slow host that gap is wide).
        .finally(() => setTimeout(() => this.seeding.delete(k), SEED_KEPT_MS).unref());
      this.seeding.set(k, pending);
    }
    return pending;
  }
}

function counts([status, tokens, hourCount, hourTtlMs, monthCount]: Reply): WindowCounts {
  return {
    refused: REFUSED[status],
    tokens: Number(tokens),
    hourCount,
    hourResetMs: hourTtlMs > 0 ? hourTtlMs : null,
    monthCount,
  };
}
