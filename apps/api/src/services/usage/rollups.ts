import { and, eq, gte } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { usageDaily } from '../../data/schema/index';

/** The daily usage rollups as the analytics read them, and the arithmetic they share. */

const DAY = 86_400_000;
export const dayStr = (d: Date) => d.toISOString().slice(0, 10);
export const round1 = (n: number) => Math.round(n * 10) / 10;
/** Percentage of `ok` in `total`; a period without calls counts as all successful. */
export const rate = (ok: number, total: number) => (total === 0 ? 100 : round1((ok / total) * 100));

/** Every UTC day from `days - 1` days ago to today. */
export function periodDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => dayStr(new Date(today - (days - 1 - i) * DAY)));
}

export interface DailyRow {
  day: string;
  keyId: string;
  endpoint: string;
  group: string;
  requests: number;
  counted: number;
  errors: number;
  dur: number;
}

/** The rollup rows since `from` (a UTC day), of one user or (null) of everyone. */
export async function dailyRows(db: Db, userId: string | null, from: string): Promise<DailyRow[]> {
  const rows = await db
    .select({
      day: usageDaily.day,
      keyId: usageDaily.keyId,
      endpoint: usageDaily.endpoint,
      group: usageDaily.endpointGroup,
      requests: usageDaily.requests,
      counted: usageDaily.counted,
      errors: usageDaily.errors,
      dur: usageDaily.totalDurationMs,
    })
    .from(usageDaily)
    .where(userId ? and(eq(usageDaily.userId, userId), gte(usageDaily.day, from)) : gte(usageDaily.day, from));
  return rows.map((r) => ({ ...r, dur: Number(r.dur) }));
}

/** Requests and errors per day, every day of the period present (zero when nothing happened). */
export function series(rows: DailyRow[], days: string[]) {
  const by = new Map(days.map((d) => [d, { date: d, requests: 0, errors: 0 }]));
  for (const r of rows) {
    const p = by.get(r.day);
    if (p) {
      p.requests += r.requests;
      p.errors += r.errors;
    }
  }
  return [...by.values()];
}

/** Requests, errors and time spent over the rows, with the success rate and the mean response time. */
export function totals(rows: DailyRow[]) {
  let requests = 0;
  let errors = 0;
  let dur = 0;
  for (const r of rows) {
    requests += r.requests;
    errors += r.errors;
    dur += r.dur;
  }
  return {
    requests,
    errors,
    successRate: rate(requests - errors, requests),
    avgResponseTime: requests ? round1(dur / requests) : 0,
  };
}
