import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Limits } from '../../../src/services/limits/index';
import { limitsOf, sleep } from '../../support/limits';
import { MemoryTokenBuckets } from '../../../src/services/limits/token-bucket';

const L = limitsOf;

describe('token bucket (memory)', () => {
  it('holds `capacity` tokens and refills at perMinute per 60 s', () => {
    let now = 1_000_000;
    const b = new MemoryTokenBuckets(() => now);
    for (let i = 0; i < 10; i++) expect(b.takeSync('k', 10, 60).allowed).toBe(true);
    expect(b.takeSync('k', 10, 60).allowed).toBe(false);
    now += 999;
    expect(b.takeSync('k', 10, 60).allowed).toBe(false);
    now += 1;
    expect(b.takeSync('k', 10, 60).allowed).toBe(true); // one token a second
    now += 60_000;
    expect(b.takeSync('k', 10, 60).tokens).toBe(9); // never above capacity
    expect(b.takeSync('k', 10, 60, -5).tokens).toBe(10); // a refund is capped too
  });
});

describe('Limits (memory)', () => {
  it('burst then per-minute refill; Retry-After is the time to the next token', async () => {
    let now = Date.UTC(2030, 4, 10, 12);
    const limits = new Limits({ now: () => now });
    const k = randomUUID();
    const lim = L({ maxRequestsPerMinute: 6, burstLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await limits.consume(k, lim)).allowed).toBe(true);
    const refused = await limits.consume(k, lim);
    expect(refused).toMatchObject({ allowed: false, window: 'minute', code: 'RATE_LIMIT_EXCEEDED', retryAfterSec: 10 });
    expect(refused.headers).toMatchObject({ 'RateLimit-Limit': 3, 'RateLimit-Remaining': 0, 'Retry-After': 10 });
    expect(refused.headers['RateLimit-Policy']).toBe('6;w=60;burst=3, 1000;w=3600, 10000;w=2592000');
    now += 10_000;
    expect((await limits.consume(k, lim)).allowed).toBe(true);
    expect((await limits.consume(k, lim)).allowed).toBe(false);
  });

  it('an hour refusal is not counted against the bucket or the month', async () => {
    const limits = new Limits();
    const k = randomUUID();
    const lim = L({ maxRequestsPerHour: 2 });
    await limits.consume(k, lim);
    await limits.consume(k, lim);
    for (let i = 0; i < 5; i++) expect(await limits.consume(k, lim)).toMatchObject({ allowed: false, window: 'hour' });
    const probe = await limits.consume(k, L({ maxRequestsPerHour: 1000 }));
    expect(probe.remaining.minute).toBe(100 - 3);
    expect(probe.monthUsed).toBe(3);
    expect(probe.remaining.hour).toBe(1000 - 3);
  });

  it('a month refusal is not counted against the bucket or the hour', async () => {
    const limits = new Limits();
    const k = randomUUID();
    const lim = L({ maxRequestsPerMonth: 2 });
    await limits.consume(k, lim);
    await limits.consume(k, lim);
    for (let i = 0; i < 5; i++) {
      const d = await limits.consume(k, lim);
      expect(d).toMatchObject({ allowed: false, window: 'month', code: 'QUOTA_EXCEEDED' });
      expect(d.retryAfterSec).toBeGreaterThan(0);
      expect(d.retryAfterSec).toBeLessThanOrEqual(31 * 86400);
    }
    const probe = await limits.consume(k, L({ maxRequestsPerMonth: 1000 }));
    expect(probe.remaining).toEqual({ minute: 97, hour: 997, month: 997 });
  });

  it('the month counter outlives a setTimeout overflow (windows longer than 24.8 days)', async () => {
    // On the 1st of a 31-day month the window is 31 days: past setTimeout's 2^31-1 ms, which fires at once.
    const limits = new Limits({ now: () => Date.UTC(2030, 0, 1, 0, 0, 1) });
    const k = randomUUID();
    await limits.consume(k, L());
    await sleep(30);
    expect((await limits.consume(k, L())).monthUsed).toBe(2);
  });

  it('a fresh month counter starts from what the rollups already counted (restart, failover)', async () => {
    const asked: string[] = [];
    const limits = new Limits({
      monthUsedBefore: async (keyId, start) => {
        asked.push(keyId);
        expect(start.getUTCDate()).toBe(1);
        return 998;
      },
    });
    const k = randomUUID();
    const lim = L({ maxRequestsPerMonth: 1000 });
    const first = await limits.consume(k, lim);
    expect(first).toMatchObject({ allowed: true, monthUsed: 999 });
    expect((await limits.consume(k, lim)).allowed).toBe(true);
    expect(await limits.consume(k, lim)).toMatchObject({ allowed: false, code: 'QUOTA_EXCEEDED' });
    expect(asked).toEqual([k]);
  });

  it('a refund gives back the token, the hour and the month of the call, never below zero', async () => {
    let now = Date.UTC(2030, 4, 10, 12);
    const limits = new Limits({ now: () => now });
    const k = randomUUID();
    const lim = L({ maxRequestsPerMinute: 6, burstLimit: 2, maxRequestsPerHour: 3, maxRequestsPerMonth: 4 });
    const first = await limits.consume(k, lim);
    const second = await limits.consume(k, lim);
    expect(second.remaining).toEqual({ minute: 0, hour: 1, month: 2 });
    // The hour window runs on the limiter library's own clock since the first call: a millisecond may have passed.
    expect(second.receipt).toEqual({ subject: k, monthId: '203005', hourEndsAt: expect.any(Number) });
    expect(second.receipt!.hourEndsAt).toBeGreaterThan(now + 3_590_000);
    expect(second.receipt!.hourEndsAt).toBeLessThanOrEqual(now + 3_600_000);
    const back = await limits.refund(second.receipt!, lim);
    expect(back.remaining).toEqual({ minute: 1, hour: 2, month: 3 });
    expect(back.headers['RateLimit-Remaining']).toBe(1);
    await limits.refund(first.receipt!, lim);
    expect((await limits.refund(first.receipt!, lim)).remaining).toEqual({ minute: 2, hour: 3, month: 4 });
    // Refused calls carry no receipt: they took nothing.
    await limits.consume(k, lim);
    await limits.consume(k, lim);
    expect((await limits.consume(k, lim)).receipt).toBeUndefined();

    // A call whose hour window closed before its refund leaves the new hour alone; its month is still given back.
    const late = await limits.consume(randomUUID(), lim);
    now += 3_600_001;
    const after = await limits.refund(late.receipt!, lim);
    expect(after.remaining.month).toBe(4);
    expect(after.remaining.hour).toBe(2); // the (simulated) new hour window keeps its count
  });

  it('headers speak of the window closest to refusing', async () => {
    const limits = new Limits();
    const d = await limits.consume(randomUUID(), L({ maxRequestsPerMinute: 100, maxRequestsPerHour: 5 }));
    expect(d.headers).toMatchObject({ 'RateLimit-Limit': 5, 'RateLimit-Remaining': 4 });
    expect(Number(d.headers['RateLimit-Reset'])).toBeGreaterThan(3000);
  });
});
