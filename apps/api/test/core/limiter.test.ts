import { describe, expect, it } from 'vitest';
import { Limiter, ownerShare, runAsOwner, runBorrowing, type JobOwner } from '../../src/core/limiter';
import { toAppError } from '../../src/plugins/error-handler';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Limiter', () => {
  it('runs at most `concurrency` jobs at once, in FIFO order', async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 10 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number) =>
      l.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 10));
        order.push(i);
        running--;
      });
    await Promise.all([0, 1, 2, 3, 4, 5].map(job));
    expect(peak).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4, 5]);
    expect(l.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('a full queue refuses at once with QUEUE_FULL and a Retry-After', async () => {
    const l = new Limiter({ concurrency: 1, queueSize: 1 });
    const gate = deferred();
    const a = l.run(() => gate.promise);
    const b = l.run(async () => 'queued');
    const c = await l.run(async () => 'refused').catch((e) => e);
    expect(c.code).toBe('QUEUE_FULL');
    expect(c.retryAfter).toBeGreaterThanOrEqual(1);
    expect(toAppError(c)).toMatchObject({ statusCode: 503, headers: { 'Retry-After': c.retryAfter } });
    gate.resolve();
    await a;
    expect(await b).toBe('queued');
    // Room again once the queue drained.
    expect(await l.run(async () => 'ok')).toBe('ok');
  });

  it('a waiter whose request was cancelled leaves the queue', async () => {
    const l = new Limiter({ concurrency: 1, queueSize: 5 });
    const gate = deferred();
    const a = l.run(() => gate.promise);
    const ac = new AbortController();
    const b = l.run(async () => 'never', ac.signal).catch((e) => e);
    expect(l.stats().queued).toBe(1);
    ac.abort();
    expect((await b).code).toBe('ABORTED');
    expect(l.stats().queued).toBe(0);
    gate.resolve();
    await a;
    expect(l.stats().running).toBe(0);
  });

  it('a failing job frees its slot', async () => {
    const l = new Limiter({ concurrency: 1, queueSize: 0 });
    await expect(l.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await l.run(async () => 1)).toBe(1);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Limiter: fair shares between owners', () => {
  const free = (id: string): JobOwner => ({ id, weight: 1 });

  it('caps one owner at their share of running slots and queue, then answers 429 with Retry-After', async () => {
    const opts = { concurrency: 4, queueSize: 40 };
    const share = ownerShare(1, opts);
    expect(share).toEqual({ running: 1, queued: 5 });
    const l = new Limiter(opts);
    const gate = deferred();
    const flood = Array.from({ length: share.running + share.queued }, () =>
      l.run(() => gate.promise, undefined, free('a')),
    );
    expect(l.stats()).toMatchObject({ running: share.running, queued: share.queued });
    const refused = await l.run(async () => 'x', undefined, free('a')).catch((e) => e);
    expect(refused.code).toBe('FAIR_SHARE_EXCEEDED');
    expect(refused.details).toMatchObject({ maxRunning: 1, maxQueued: 5 });
    expect(toAppError(refused)).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      headers: { 'Retry-After': refused.retryAfter },
    });
    // Another owner still gets a free slot at once, although the first one has work waiting.
    let started = false;
    await l.run(async () => void (started = true), undefined, free('b'));
    expect(started).toBe(true);
    gate.resolve();
    await Promise.all(flood);
    expect(l.stats()).toMatchObject({ running: 0, queued: 0, owners: 0 });
  });

  it('weighs shares by plan, never lets one owner hold every slot, and fits a fan-out over every core', () => {
    const opts = { concurrency: 8, queueSize: 100 };
    expect(ownerShare(1, opts)).toEqual({ running: 2, queued: 12 });
    expect(ownerShare(2, opts)).toEqual({ running: 4, queued: 25 });
    expect(ownerShare(4, opts)).toEqual({ running: 4, queued: 50 });
    expect(ownerShare(4, { concurrency: 2, queueSize: 100 }).running).toBe(1);
    expect(ownerShare(1, { concurrency: 16, queueSize: 8 }).queued).toBe(8);
  });

  it('hands freed slots round-robin between owners with waiting work, not first come first served', async () => {
    const l = new Limiter({ concurrency: 1, queueSize: 20 });
    const order: string[] = [];
    const job = (owner: string, i: number) =>
      l.run(
        async () => {
          order.push(`${owner}${i}`);
          await sleep(2);
        },
        undefined,
        { id: owner, weight: 4 },
      );
    const all = [1, 2, 3, 4].map((i) => job('a', i));
    all.push(job('b', 1), job('b', 2), job('c', 1));
    await Promise.all(all);
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
  });

  it('counts the slots an owner could start now (their share, the free slots, none while others wait)', async () => {
    const l = new Limiter({ concurrency: 4, queueSize: 8 });
    const pro: JobOwner = { id: 'p', weight: 2 };
    expect(l.startableNow(free('a'))).toBe(1);
    expect(l.startableNow(pro)).toBe(2);
    expect(l.startableNow(undefined)).toBe(4);
    expect(runAsOwner(pro, () => l.startableNow())).toBe(2);
    const gate = deferred();
    const held = [l.run(() => gate.promise, undefined, pro), l.run(() => gate.promise, undefined, free('b'))];
    expect(l.startableNow(pro)).toBe(1); // its share of 2, one already running
    expect(l.startableNow(free('b'))).toBe(0);
    expect(l.startableNow(undefined)).toBe(2);
    held.push(l.run(() => gate.promise, undefined, free('b'))); // b's second job waits for its share
    expect(l.startableNow(pro)).toBe(0);
    gate.resolve();
    await Promise.all(held);
    expect(l.startableNow(pro)).toBe(2);
  });

  it("a piece lent a slot first does not keep its owner's own next piece out of the owner's share", async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 8 });
    const free: JobOwner = { id: 'f', weight: 1 }; // a share of 1 slot on 2
    const gate = deferred();
    // The request's second worker happens to ask first (its page rendered sooner): lent the idle slot.
    const lent = runBorrowing(() => l.run(() => gate.promise, undefined, free));
    // The request's own worker then finds its share untouched: both cores work, nothing waits.
    const own = l.run(() => gate.promise, undefined, free);
    expect(l.stats()).toMatchObject({ running: 2, queued: 0 });
    gate.resolve();
    await Promise.all([lent, own]);
    expect(l.stats()).toMatchObject({ running: 0, queued: 0, owners: 0 });
  });

  it("pieces of a split request borrow idle slots past the owner's share, never ahead of anyone waiting", async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 8 });
    const pro: JobOwner = { id: 'p', weight: 2 }; // a share of 1 slot on 2
    const gate = deferred();
    expect(l.startableNow(pro)).toBe(1);
    expect(l.startableNow(pro, { borrow: true })).toBe(2);
    const first = l.run(() => gate.promise, undefined, pro);
    const borrowed = runBorrowing(() => l.run(() => gate.promise, undefined, pro));
    expect(l.stats()).toMatchObject({ running: 2, queued: 0 }); // both cores for one user on an idle server
    // Another user now waits for the first slot that frees; a further piece of p's waits within p's share.
    const other = deferred();
    const b = l.run(() => other.promise, undefined, free('b'));
    const third = runBorrowing(() => l.run(async () => 'third', undefined, pro));
    expect(l.stats()).toMatchObject({ running: 2, queued: 2 });
    expect(l.startableNow(pro, { borrow: true })).toBe(0);
    gate.resolve();
    await Promise.all([first, borrowed]);
    // b got a slot and p's third piece the other (its share), not both to p.
    expect(l.stats()).toMatchObject({ queued: 0 });
    expect(await third).toBe('third');
    other.resolve();
    await b;
    expect(l.stats()).toMatchObject({ running: 0, owners: 0 });
  });

  it('charges the owner of the current request (runAsOwner) through any depth of async calls', async () => {
    const l = new Limiter({ concurrency: 4, queueSize: 8 });
    const gate = deferred();
    const deep = async () => {
      await sleep(1);
      return l.run(() => gate.promise);
    };
    const held = runAsOwner(free('a'), () => [deep(), deep(), deep()]);
    await sleep(10);
    // Weight 1 on 4 slots: one runs, the other two wait in a's queue.
    expect(l.stats()).toMatchObject({ running: 1, queued: 2, owners: 1 });
    gate.resolve();
    await Promise.all(held);
  });

  it("a cancelled waiter leaves its owner's queue and frees its place", async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 10 });
    const gate = deferred();
    const a = l.run(() => gate.promise, undefined, free('a'));
    const ac = new AbortController();
    const b = l.run(async () => 'never', ac.signal, free('a')).catch((e) => e);
    expect(l.stats().queued).toBe(1);
    ac.abort();
    expect((await b).code).toBe('ABORTED');
    expect(l.stats()).toMatchObject({ queued: 0, running: 1 });
    gate.resolve();
    await a;
    expect(l.stats()).toMatchObject({ running: 0, owners: 0 });
  });

  it("a flood of slow jobs from one owner leaves another owner's short jobs at their normal time", async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 100 });
    const short = async (owner: JobOwner) => {
      const t0 = performance.now();
      await l.run(() => sleep(20), undefined, owner);
      return performance.now() - t0;
    };
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push(await short(free('b')));

    const stop = deferred();
    let refused = 0;
    let served = 0;
    const flood: Array<Promise<unknown>> = [];
    // Slow jobs (a page whose script never ends, until the deadline) sent as fast as the owner can.
    for (let i = 0; i < 200; i++) {
      flood.push(
        l
          .run(() => Promise.race([stop.promise, sleep(500)]), undefined, free('a'))
          .then(
            () => served++,
            (e: { code?: string }) => {
              if (e.code !== 'FAIR_SHARE_EXCEEDED') throw e;
              refused++;
            },
          ),
      );
    }
    const busy: number[] = [];
    for (let i = 0; i < 5; i++) busy.push(await short(free('b')));
    stop.resolve();
    await Promise.all(flood);
    expect(refused).toBeGreaterThan(150);
    expect(served).toBeGreaterThan(0);
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // Generous factor, no absolute figure: the other owner never waits behind the flood.
    expect(median(busy)).toBeLessThan(median(alone) * 3);
  });
});

describe('Limiter: jobs that need a pooled resource with their slot (SlotGate)', () => {
  /** A pool of `size` tokens; a job's gate takes one, and it is given back by `give`. */
  function tokens(size: number) {
    let free = size;
    const gate = () => {
      let mine = false;
      return {
        get open() {
          return mine;
        },
        take() {
          if (free === 0) return false;
          free--;
          mine = true;
          return true;
        },
      };
    };
    return { gate, give: () => free++, free: () => free };
  }

  it('a job whose gate is shut waits in the queue, holding no slot, and starts in turn once one is given back', async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 5 });
    const pool = tokens(1);
    const first = pool.gate();
    await l.run(async () => undefined, undefined, undefined, first);
    expect(first.open).toBe(true);
    const order: string[] = [];
    const b = l.run(async () => void order.push('b'), undefined, undefined, pool.gate());
    const c = l.run(async () => void order.push('c'), undefined, undefined, pool.gate());
    expect(l.stats()).toMatchObject({ running: 0, queued: 2 });
    // A job that needs no token passes them, a slot being free.
    expect(await l.run(async () => 'plain')).toBe('plain');
    // Its holder's later jobs pass too: the token is theirs already.
    expect(await l.run(async () => 'holder', undefined, undefined, first)).toBe('holder');
    pool.give();
    l.wake();
    await b;
    expect(order).toEqual(['b']);
    expect(l.stats()).toMatchObject({ running: 0, queued: 1 });
    pool.give();
    // Without being told: waiters held back by their gate look again by themselves.
    await c;
    expect(order).toEqual(['b', 'c']);
    expect(pool.free()).toBe(0);
  });

  it('a newcomer does not take a token from under those waiting for one, and a full queue refuses', async () => {
    const l = new Limiter({ concurrency: 2, queueSize: 1 });
    const pool = tokens(0);
    const waiting = l.run(async () => 'first', undefined, undefined, pool.gate());
    pool.give();
    // The token is free, but the waiter came first: the newcomer queues behind it... and the queue is full.
    const refused = await l.run(async () => 'late', undefined, undefined, pool.gate()).catch((e) => e);
    expect(refused.code).toBe('QUEUE_FULL');
    l.wake();
    expect(await waiting).toBe('first');
  });
});
