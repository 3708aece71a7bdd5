import type { TServiceHealth, TServiceStatus } from '@docflow/contracts';
import type { EngineHealth } from '../../../core/engine-module';
import type { EngineStatus } from '../../../core/interfaces';
import type { EngineWatch } from './engine-watch';

export interface ServiceProbes {
  database: { driver: string; ping(): Promise<void> };
  redis?: { ping(): Promise<unknown>; info?(): Promise<string>; status?: string };
  /** Every engine of some chain, with the live status of those that keep processes. */
  engines(): Array<{ id: string; status?: EngineStatus }>;
  /** `--version` of each engine (cached by the caller: it starts a process per engine). */
  engineVersions(): Promise<Record<string, EngineHealth>>;
  watch: EngineWatch;
  api(): { eventLoopP99Ms: number; avgResponseMs: number; keysCached: number; queued: number };
}

const CRITICAL = new Set(['database', 'redis', 'api']);
const PROBE_TIMEOUT_MS = 3000;

function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value?: T; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([fn(), timeout])
    .then((value) => ({ ms: Math.round((performance.now() - started) * 10) / 10, value }))
    .catch((err: Error) => ({ ms: Math.round((performance.now() - started) * 10) / 10, error: err.message }))
    .finally(() => clearTimeout(timer));
}

const service = (
  name: string,
  status: TServiceStatus,
  ms: number | null,
  extra: Partial<TServiceHealth> = {},
): TServiceHealth => ({
  status,
  response_time_ms: ms,
  critical: CRITICAL.has(name),
  error: null,
  checked_at: new Date().toISOString(),
  ...extra,
});

/** One pass over every service the product depends on, each answering within three seconds or reported as down. */
export async function probeServices(p: ServiceProbes): Promise<Record<string, TServiceHealth>> {
  const out: Record<string, TServiceHealth> = {};
  const [db, redis, versions] = await Promise.all([
    timed(() => p.database.ping()),
    p.redis ? timed(() => p.redis!.ping()) : Promise.resolve(null),
    p.engineVersions(),
  ]);
  out.database = service('database', db.error ? 'error' : db.ms > 500 ? 'degraded' : 'healthy', db.ms, {
    connection: p.database.driver,
    error: db.error ?? null,
  });
  if (redis)
    out.redis = service('redis', redis.error ? 'error' : redis.ms > 200 ? 'degraded' : 'healthy', redis.ms, {
      connection: p.redis?.status ?? 'configured',
      error: redis.error ?? null,
    });
  const api = p.api();
  // The API's response time is its own traffic's average (last five minutes); a blocked event loop degrades it.
  out.api = service('api', api.eventLoopP99Ms > 500 ? 'degraded' : 'healthy', api.avgResponseMs, {
    details: { event_loop_p99_ms: api.eventLoopP99Ms },
    keys_count: api.keysCached,
    queue_length: api.queued,
    error: api.eventLoopP99Ms > 500 ? `event loop delay p99 ${api.eventLoopP99Ms} ms` : null,
  });
  for (const { id, status } of p.engines()) {
    const v = versions[id];
    const runs = p.watch.summary(id);
    const problems = [
      v && !v.ok ? `not runnable: ${v.message ?? 'failing'}` : null,
      status?.state !== 'ok' ? (status?.problem ?? null) : null,
      runs.failing ? `${runs.failed} of its last ${runs.runs} operations failed (${runs.lastError?.code})` : null,
    ].filter((x): x is string => !!x);
    const state: TServiceStatus =
      (v && !v.ok) || status?.state === 'error' ? 'error' : problems.length ? 'degraded' : v ? 'healthy' : 'unknown';
    out[id] = service(id, state, v?.ms ?? null, {
      error: problems.join('; ') || null,
      details: {
        ...(v?.version ? { version: v.version } : {}),
        ...(status?.details ?? {}),
        runs_5m: runs.runs,
        failed_5m: runs.failed,
        last_error: runs.lastError
          ? `${runs.lastError.code} in ${runs.lastError.op} at ${new Date(runs.lastError.at).toISOString()}`
          : null,
      },
    });
  }
  return out;
}
