import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Limits, type LimitDecision, type RateLimits } from '../../../src/services/limits/index';
import { limitsOf, sleep } from '../../support/limits';

/** The Redis store as one script: round trips, atomicity across nodes, seeding, parity with memory, insurance. */
const REDIS = process.env.TEST_REDIS_URL;
const L = limitsOf;
const thisMonth = () => new Date().toISOString().slice(0, 7).replace('-', '');

describe.skipIf(!REDIS)('Limits on Redis: one script per call', () => {
  const prefix = `docflow:test:script:${randomUUID()}:`;
  const opened: Limits[] = [];
  let admin: Redis;
  let monitor: Redis;
  const seen: Array<{ source: string; command: string }> = [];

  async function node(opts: Partial<ConstructorParameters<typeof Limits>[0]> = {}): Promise<Limits> {
    const l = new Limits({ redisUrl: REDIS, prefix, ...opts });
    opened.push(l);
    for (let i = 0; i < 100 && l.redis!.status !== 'ready'; i++) await sleep(20);
    expect(l.redis!.status).toBe('ready');
    return l;
  }

  /** The commands Redis received from `l`'s connection while `fn` ran (MONITOR, so what really crossed the wire). */
  async function commandsOf(l: Limits, fn: () => Promise<unknown>): Promise<string[]> {
    const sock = (l.redis as unknown as { stream: Socket }).stream;
    const source = `${sock.localAddress}:${sock.localPort}`;
    const marker = `end-${randomUUID()}`;
    const from = seen.length;
    await fn();
    await l.redis!.echo(marker); // MONITOR keeps Redis's order: once the marker shows, everything before it has
    for (let i = 0; i < 200 && !seen.slice(from).some((c) => c.command === `echo ${marker}`); i++) await sleep(5);
    const mine = seen.slice(from).filter((c) => c.source === source);
    expect(mine.at(-1)?.command).toBe(`echo ${marker}`);
    return mine.slice(0, -1).map((c) => c.command.split(' ')[0]!);
  }

  beforeAll(async () => {
    // ioredis fails a MONITOR connection ("Command queue state error") when another client's command is echoed in
    // the same read as MONITOR's own OK, and other test files talk to this Redis meanwhile: try again on that.
    for (let attempt = 1; !monitor; attempt++) {
      const m = new Redis(REDIS!, { monitor: true });
      const ok = await new Promise<boolean>((resolve) => {
        m.once('monitoring', () => resolve(true));
        m.once('error', () => resolve(false));
      });
      if (ok) monitor = m;
      else if (attempt >= 5) throw new Error('MONITOR could not be started');
      else m.disconnect();
    }
    admin = new Redis(REDIS!);
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      seen.push({ source, command: args.map((a) => a.toLowerCase()).join(' ') });
    });
  });
  afterAll(async () => {
    monitor?.disconnect();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
    await Promise.all(opened.map((l) => l.close()));
  });

  describe('round trips', () => {
    it('one command per consume and per peek, from the first call of a connection on', async () => {
      const l = await node();
      const k = randomUUID();
      expect(await commandsOf(l, () => l.consume(k, L()))).toEqual([expect.stringMatching(/^eval(sha)?$/)]);
      expect(await commandsOf(l, () => l.consume(k, L()))).toEqual(['evalsha']);
      expect(await commandsOf(l, () => l.peek(k, L()))).toEqual(['evalsha']);
      let counted: LimitDecision | undefined;
      expect(await commandsOf(l, async () => void (counted = await l.consume(k, L())))).toEqual(['evalsha']);
      // A refund: one more script, one command too.
      expect(await commandsOf(l, () => l.refund(counted!.receipt!, L()))).toEqual(['eval']);
      expect(await commandsOf(l, () => l.refund(counted!.receipt!, L()))).toEqual(['evalsha']);
      // Refusals too: nothing to give back.
      const tight = L({ maxRequestsPerHour: 2 });
      expect(await commandsOf(l, () => l.consume(k, tight))).toEqual(['evalsha']);
      expect(await commandsOf(l, () => l.consume(k, L({ maxRequestsPerMonth: 2 })))).toEqual(['evalsha']);
      expect(await commandsOf(l, () => l.consume(k, L({ maxRequestsPerMinute: 1 })))).toEqual(['evalsha']);
    });

    it('seeding a new month counter from the rollups costs one more, once', async () => {
      let asked = 0;
      const l = await node({
        monthUsedBefore: async () => {
          asked++;
          return 40;
        },
      });
      const k = randomUUID();
      let first: LimitDecision | undefined;
      expect(
        await commandsOf(l, async () => {
          first = await l.consume(k, L({ maxRequestsPerMonth: 42 }));
        }),
      ).toEqual([expect.stringMatching(/^eval(sha)?$/), 'evalsha']);
      expect(first).toMatchObject({ allowed: true, monthUsed: 41, remaining: { month: 1 } });
      let second: LimitDecision | undefined;
      expect(
        await commandsOf(l, async () => {
          second = await l.consume(k, L({ maxRequestsPerMonth: 42 }));
        }),
      ).toEqual(['evalsha']);
      expect(second).toMatchObject({ allowed: true, monthUsed: 42 });
      expect(await l.consume(k, L({ maxRequestsPerMonth: 42 }))).toMatchObject({
        allowed: false,
        code: 'QUOTA_EXCEEDED',
      });
      expect(asked).toBe(1);
      expect(await admin.get(`${prefix}m:${k}:${thisMonth()}`)).toBe('42');
    });
  });

  describe('atomic across nodes', () => {
    const N = 25;
    const hammer = async (k: string, lim: RateLimits, nodes: Limits[]) => {
      const all = await Promise.all(Array.from({ length: N + 10 }, (_, i) => nodes[i % nodes.length]!.consume(k, lim)));
      return { allowed: all.filter((d) => d.allowed).length, refused: all.filter((d) => !d.allowed) };
    };

    it('N + 10 concurrent calls on two nodes against a limit of N: exactly N allowed, per window', async () => {
      const nodes = [await node(), await node()];
      const byMinute = randomUUID();
      const m = await hammer(byMinute, L({ maxRequestsPerMinute: 1, burstLimit: N }), nodes);
      expect(m.allowed).toBe(N);
      expect(m.refused.every((d) => d.window === 'minute')).toBe(true);

      const byHour = randomUUID();
      const h = await hammer(byHour, L({ maxRequestsPerHour: N }), nodes);
      expect(h.allowed).toBe(N);
      expect(h.refused.every((d) => d.window === 'hour')).toBe(true);
      expect(await admin.get(`${prefix}h:${byHour}`)).toBe(String(N));
      expect(await admin.get(`${prefix}m:${byHour}:${thisMonth()}`)).toBe(String(N)); // refusals left the month alone

      const byMonth = randomUUID();
      const mo = await hammer(byMonth, L({ maxRequestsPerMonth: N }), nodes);
      expect(mo.allowed).toBe(N);
      expect(mo.refused.every((d) => d.code === 'QUOTA_EXCEEDED')).toBe(true);
      expect(await admin.get(`${prefix}h:${byMonth}`)).toBe(String(N)); // and the hour
      const tokens = Number(await admin.hget(`${prefix}b:${byMonth}`, 'tk'));
      expect(Math.floor(tokens)).toBe(100 - N); // and the bucket (give or take the refill of a few ms)
      expect((await nodes[1]!.peek(byMonth, L({ maxRequestsPerMonth: N }))).remaining).toEqual({
        minute: 100 - N,
        hour: 1000 - N,
        month: 0,
      });
    });

    it('a call refused by the hour never held a token: concurrent calls are not refused by the bucket', async () => {
      const nodes = [await node(), await node()];
      const k = randomUUID();
      await admin.set(`${prefix}h:${k}`, String(N - 5), 'PX', 3_600_000); // 5 calls left this hour
      const r = await hammer(k, L({ maxRequestsPerMinute: 1, burstLimit: N, maxRequestsPerHour: N }), nodes);
      expect(r.allowed).toBe(5);
      // With take-then-refund, the calls the hour refuses hold bucket tokens for a moment and others get "minute".
      expect(r.refused.map((d) => d.window)).toEqual(Array(N + 5).fill('hour'));
      expect(Math.floor(Number(await admin.hget(`${prefix}b:${k}`, 'tk')))).toBe(N - 5);
    });

    it('two nodes seeding the same new month counter at once agree on one seed', async () => {
      const asked: string[] = [];
      const monthUsedBefore = async (keyId: string) => {
        asked.push(keyId);
        await sleep(20);
        return 15;
      };
      const nodes = [await node({ monthUsedBefore }), await node({ monthUsedBefore })];
      const k = randomUUID();
      const r = await hammer(k, L({ maxRequestsPerMonth: N }), nodes);
      expect(r.allowed).toBe(N - 15);
      expect(asked.length).toBeLessThanOrEqual(2); // once per node, however many calls found the counter missing
      expect(await admin.get(`${prefix}m:${k}:${thisMonth()}`)).toBe(String(N));
      // The month counter expires at the end of the UTC month, the hour window an hour after its first call.
      const d = new Date();
      const toMonthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - Date.now();
      const monthTtl = await admin.pttl(`${prefix}m:${k}:${thisMonth()}`);
      expect(monthTtl).toBeGreaterThan(Math.max(60_000, toMonthEnd) - 5000);
      expect(monthTtl).toBeLessThanOrEqual(Math.max(60_000, toMonthEnd));
      const hourTtl = await admin.pttl(`${prefix}h:${k}`);
      expect(hourTtl).toBeGreaterThan(3_600_000 - 5000);
      expect(hourTtl).toBeLessThanOrEqual(3_600_000);
    });
  });

  it('gives the decisions of the memory store, call for call', async () => {
    const redis = await node();
    const memory = new Limits();
    // RateLimit-Reset and Retry-After follow the clock; the minute ones are whole refill periods either way.
    const run = async (l: Limits) => {
      const out: LimitDecision[] = [];
      const burst = randomUUID();
      for (let i = 0; i < 4; i++) out.push(await l.consume(burst, L({ maxRequestsPerMinute: 6, burstLimit: 3 })));
      out.push(await l.peek(burst, L({ maxRequestsPerMinute: 6, burstLimit: 3 })));
      const hour = randomUUID();
      for (let i = 0; i < 4; i++) out.push(await l.consume(hour, L({ maxRequestsPerHour: 2 })));
      out.push(await l.consume(hour, L()));
      const month = randomUUID();
      for (let i = 0; i < 4; i++) out.push(await l.consume(month, L({ maxRequestsPerMonth: 2 })));
      out.push(await l.consume(month, L({ maxRequestsPerMonth: 1000 })));
      out.push(await l.peek(randomUUID(), L({ burstLimit: 150 })));
      const back = randomUUID();
      const tight = L({ maxRequestsPerMinute: 6, burstLimit: 3, maxRequestsPerHour: 5, maxRequestsPerMonth: 7 });
      for (let i = 0; i < 2; i++) out.push(await l.consume(back, tight));
      out.push(await l.refund(out.at(-1)!.receipt!, tight));
      out.push(await l.consume(back, tight));
      return out;
    };
    const [r, m] = [await run(redis), await run(memory)];
    // A reset beyond the hour can only be the month end, whichever window is the tightest.
    const monthReset = (d: LimitDecision) => Number(d.headers['RateLimit-Reset']) > 3600;
    expect(r).toHaveLength(m.length);
    for (let i = 0; i < m.length; i++) {
      const [{ receipt: ra, ...a }, { receipt: rb, ...b }] = [r[i]!, m[i]!];
      // Receipts name windows of the same month (the subjects are random per run; hour ends follow each clock).
      expect(ra?.monthId).toEqual(rb?.monthId);
      if (monthReset(b)) {
        // Seconds to the month end: taken a few ms apart.
        expect(Math.abs(Number(a.headers['RateLimit-Reset']) - Number(b.headers['RateLimit-Reset']))).toBeLessThan(3);
        a.headers['RateLimit-Reset'] = b.headers['RateLimit-Reset']!;
        if (a.retryAfterSec) a.retryAfterSec = a.headers['Retry-After'] = b.retryAfterSec!;
      }
      expect({ i, ...a }).toEqual({ i, ...b });
    }
  });

  it('a failing command is reported and the memory store answers', async () => {
    const errors: unknown[] = [];
    const l = await node({ onRedisError: (err) => errors.push(err) });
    const k = randomUUID();
    await admin.set(`${prefix}b:${k}`, 'not a hash'); // the script fails with WRONGTYPE
    const lim = L({ maxRequestsPerMinute: 2 });
    expect(await l.consume(k, lim)).toMatchObject({ allowed: true, remaining: { minute: 1 } });
    expect(await l.consume(k, lim)).toMatchObject({ allowed: true, remaining: { minute: 0 } });
    expect(await l.consume(k, lim)).toMatchObject({ allowed: false, window: 'minute' });
    expect((await l.peek(k, lim)).remaining.minute).toBe(0);
    expect(errors).toHaveLength(4);
    expect(String(errors[0])).toMatch(/WRONGTYPE/);
    expect(await admin.get(`${prefix}b:${k}`)).toBe('not a hash');
  });
});
