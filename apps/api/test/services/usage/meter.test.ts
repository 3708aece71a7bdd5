import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../helper';
import type { Database } from '../../../src/data/db';
import { users } from '../../../src/data/schema/index';
import { UsageMeter, type UsageEvent } from '../../../src/services/usage/meter';
import { monthUsedBySubject } from '../../../src/services/limits/month-usage';

describe('UsageMeter: batched writes and daily rollups', () => {
  let database: Database;
  let userId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    const [u] = await database.db
      .insert(users)
      .values({ email: 'meter@example.test', name: 'Meter', passwordHash: 'x' })
      .returning();
    userId = u!.id;
  });
  afterAll(() => database.close());

  const ev = (keyId: string, o: Partial<UsageEvent> = {}): UsageEvent => ({
    keyId,
    userId,
    endpoint: '/pdf/merge',
    group: 'pdf',
    method: 'POST',
    statusCode: 200,
    durationMs: 10,
    bytesIn: 100,
    bytesOut: 50,
    pages: null,
    errorCode: null,
    counted: true,
    requestId: randomUUID(),
    createdAt: new Date(),
    ...o,
  });
  const count = async (sql: string, p: unknown[]) => (await database.sql.query<{ n: number }>(sql, p))[0]!.n;

  it('writes nothing until the batch is full or the interval passes', async () => {
    const meter = new UsageMeter(database.db, { flushIntervalMs: 60_000, maxBatch: 5 });
    const k = randomUUID();
    for (let i = 0; i < 4; i++) meter.record(ev(k));
    expect(await count('select count(*)::int as n from usage_events where key_id = $1', [k])).toBe(0);
    meter.record(ev(k)); // the fifth fills the batch: written without waiting for the interval
    for (let i = 0; i < 100 && meter.batches === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await count('select count(*)::int as n from usage_events where key_id = $1', [k])).toBe(5);
    expect(meter.batches).toBe(1);
    await meter.close();
  });

  it('rolls events up per UTC day, key and endpoint (upserts across batches)', async () => {
    const meter = new UsageMeter(database.db, { flushIntervalMs: 60_000, maxBatch: 1000 });
    const k = randomUUID();
    const yesterday = new Date(Date.now() - 86_400_000);
    meter.record(ev(k, { durationMs: 30, bytesIn: 1000 }));
    meter.record(ev(k, { statusCode: 413, errorCode: 'FILE_TOO_LARGE', durationMs: 5 }));
    meter.record(ev(k, { statusCode: 429, errorCode: 'RATE_LIMIT_EXCEEDED', counted: false }));
    meter.record(ev(k, { createdAt: yesterday }));
    meter.record(ev(k, { endpoint: '/pdf/split' }));
    await meter.flush();
    meter.record(ev(k));
    await meter.close(); // close flushes what is left
    const rows = await database.sql.query<{
      day: string;
      endpoint: string;
      requests: number;
      counted: number;
      errors: number;
      total_duration_ms: string;
      bytes_in: string;
    }>(
      `select to_char(day, 'YYYY-MM-DD') as day, endpoint, requests, counted, errors, total_duration_ms::text, bytes_in::text from usage_daily where key_id = $1 order by day, endpoint`,
      [k],
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(rows).toEqual([
      {
        day: yesterday.toISOString().slice(0, 10),
        endpoint: '/pdf/merge',
        requests: 1,
        counted: 1,
        errors: 0,
        total_duration_ms: '10',
        bytes_in: '100',
      },
      {
        day: today,
        endpoint: '/pdf/merge',
        requests: 4,
        counted: 3,
        errors: 2,
        total_duration_ms: '55',
        bytes_in: '1300',
      },
      {
        day: today,
        endpoint: '/pdf/split',
        requests: 1,
        counted: 1,
        errors: 0,
        total_duration_ms: '10',
        bytes_in: '100',
      },
    ]);
    const monthStart = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    expect(await monthUsedBySubject(database.db, `k:${k}`, monthStart)).toBe(yesterday >= monthStart ? 5 : 4);
  });

  it('keeps the events when a write fails and writes them on the next flush', async () => {
    const k = randomUUID();
    let fail = true;
    const flaky = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop === 'transaction' && fail) return async () => Promise.reject(new Error('database away'));
        return Reflect.get(target, prop, receiver);
      },
    });
    const meter = new UsageMeter(flaky, { flushIntervalMs: 60_000, maxBatch: 1000 });
    meter.record(ev(k));
    meter.record(ev(k));
    await meter.flush();
    expect(meter.pending).toBe(2);
    fail = false;
    await meter.close();
    expect(meter.pending).toBe(0);
    expect(await count('select count(*)::int as n from usage_events where key_id = $1', [k])).toBe(2);
  });
});
