import { describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter';
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
