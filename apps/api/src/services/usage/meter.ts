import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../data/db';

export interface UsageEvent {
  keyId: string;
  userId: string;
  /** Route path without the /api/v1 prefix, e.g. `/pdf/merge`. */
  endpoint: string;
  group: string;
  method: string;
  statusCode: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  pages: number | null;
  errorCode: string | null;
  /** The call passed the limits (counts against the quotas). */
  counted: boolean;
  requestId: string;
  createdAt: Date;
}

export interface UsageMeterOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Events kept while the database refuses writes; beyond it the oldest are dropped (and logged). */
  maxBuffered?: number;
  log?: FastifyBaseLogger;
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Usage metering off the request path: `record` only pushes to a buffer; a writer flushes it every second (or at 500
 * events) in one transaction: the events, the daily rollups (upserts) and the keys' lastUsedAt (one update per key
 * per batch, not a write per call). Flushed on close.
 */
export class UsageMeter {
  private buffer: UsageEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private readonly interval: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;
  /** Batches written (for tests and the bench). */
  batches = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: UsageMeterOptions = {},
  ) {
    this.interval = opts.flushIntervalMs ?? 1000;
    this.maxBatch = opts.maxBatch ?? 500;
    this.maxBuffered = opts.maxBuffered ?? 100_000;
  }

  get pending(): number {
    return this.buffer.length;
  }

  record(event: UsageEvent): void {
    this.buffer.push(event);
    if (this.buffer.length >= this.maxBatch) void this.flush();
    else if (!this.timer && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.interval);
      this.timer.unref();
    }
  }

  /** Write everything buffered so far. Concurrent calls share one writer; resolves once the buffer seen is written. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.write(batch)
      .catch((err) => {
        this.opts.log?.error(
          { err, events: batch.length },
          'usage events could not be written; keeping them for the next flush',
        );
        this.buffer = batch.concat(this.buffer);
        if (this.buffer.length > this.maxBuffered) {
          const dropped = this.buffer.length - this.maxBuffered;
          this.buffer = this.buffer.slice(dropped);
          this.opts.log?.error({ dropped }, 'usage buffer full: oldest events dropped');
        }
        if (!this.timer && !this.closed) {
          this.timer = setTimeout(() => {
            this.timer = null;
            void this.flush();
          }, this.interval * 5);
          this.timer.unref();
        }
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  private async write(batch: UsageEvent[]): Promise<void> {
    const rollups = new Map<
      string,
      {
        day: string;
        keyId: string;
        userId: string;
        endpoint: string;
        group: string;
        requests: number;
        counted: number;
        errors: number;
        dur: number;
        bin: number;
        bout: number;
      }
    >();
    const lastUsed = new Map<string, Date>();
    for (const e of batch) {
      const day = dayOf(e.createdAt);
      const k = `${day}|${e.keyId}|${e.endpoint}`;
      let r = rollups.get(k);
      if (!r) {
        r = {
          day,
          keyId: e.keyId,
          userId: e.userId,
          endpoint: e.endpoint,
          group: e.group,
          requests: 0,
          counted: 0,
          errors: 0,
          dur: 0,
          bin: 0,
          bout: 0,
        };
        rollups.set(k, r);
      }
      r.requests++;
      if (e.counted) r.counted++;
      if (e.statusCode >= 400) r.errors++;
      r.dur += e.durationMs;
      r.bin += e.bytesIn;
      r.bout += e.bytesOut;
      const prev = lastUsed.get(e.keyId);
      if (!prev || prev < e.createdAt) lastUsed.set(e.keyId, e.createdAt);
    }
    // Column arrays through unnest(): one statement and 14 parameters per batch, whatever its size (a VALUES list
    // costs a parameter per cell and several times the time to build and bind, which PGlite pays on this thread).
    const col = <T>(f: (e: UsageEvent) => T) => sql.param(batch.map(f));
    const rows = [...rollups.values()];
    const rcol = <T>(f: (r: (typeof rows)[number]) => T) => sql.param(rows.map(f));
    const used = [...lastUsed];
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO usage_events (key_id, user_id, endpoint, endpoint_group, method, status_code, duration_ms, bytes_in,
          bytes_out, pages, error_code, counted, request_id, created_at)
        SELECT * FROM unnest(${col((e) => e.keyId)}::uuid[], ${col((e) => e.userId)}::uuid[], ${col((e) => e.endpoint)}::text[],
          ${col((e) => e.group)}::text[], ${col((e) => e.method)}::text[], ${col((e) => e.statusCode)}::int[],
          ${col((e) => Math.round(e.durationMs))}::int[], ${col((e) => e.bytesIn)}::bigint[], ${col((e) => e.bytesOut)}::bigint[],
          ${col((e) => e.pages)}::int[], ${col((e) => e.errorCode)}::text[], ${col((e) => e.counted)}::bool[],
          ${col((e) => e.requestId)}::text[], ${col((e) => e.createdAt.toISOString())}::timestamptz[])`);
      await tx.execute(sql`
        INSERT INTO usage_daily (day, key_id, user_id, endpoint, endpoint_group, requests, counted, errors, total_duration_ms, bytes_in, bytes_out)
        SELECT * FROM unnest(${rcol((r) => r.day)}::date[], ${rcol((r) => r.keyId)}::uuid[], ${rcol((r) => r.userId)}::uuid[],
          ${rcol((r) => r.endpoint)}::text[], ${rcol((r) => r.group)}::text[], ${rcol((r) => r.requests)}::int[],
          ${rcol((r) => r.counted)}::int[], ${rcol((r) => r.errors)}::int[], ${rcol((r) => Math.round(r.dur))}::bigint[],
          ${rcol((r) => r.bin)}::bigint[], ${rcol((r) => r.bout)}::bigint[])
        ON CONFLICT (day, key_id, endpoint) DO UPDATE SET
          requests = usage_daily.requests + excluded.requests,
          counted = usage_daily.counted + excluded.counted,
          errors = usage_daily.errors + excluded.errors,
          total_duration_ms = usage_daily.total_duration_ms + excluded.total_duration_ms,
          bytes_in = usage_daily.bytes_in + excluded.bytes_in,
          bytes_out = usage_daily.bytes_out + excluded.bytes_out`);
      await tx.execute(sql`
        UPDATE api_keys SET last_used_at = v.at
        FROM unnest(${sql.param(used.map(([id]) => id))}::uuid[], ${sql.param(used.map(([, at]) => at.toISOString()))}::timestamptz[]) AS v(id, at)
        WHERE api_keys.id = v.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < v.at)`);
    });
    this.batches++;
  }

  /** Stop the timer and write what is left (app close). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    if (this.buffer.length) await this.flush(); // one retry after a failed write
  }
}
