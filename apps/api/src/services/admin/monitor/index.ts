import { access, constants } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import type {
  TAlertsReport,
  TBusinessMetrics,
  THealthReport,
  TMonitorReport,
  TOverallStatus,
  TRealtimeMetrics,
  TServiceHealth,
  TSystemMetrics,
} from '@docflow/contracts';
import type { Database } from '../../../data/db';
import { plans } from '../../../data/schema/index';
import type { EngineHealth } from '../../../core/engine-module';
import type { Engines } from '../../../core/engines';
import { getAdminOverview } from '../../usage/admin-overview';
import type { MaintenanceSwitch } from '../maintenance';
import { defaultThresholds, evaluateAlerts } from './alerts';
import { EngineWatch } from './engine-watch';
import { HttpWindow } from './http-window';
import { probeServices } from './services-health';
import { SystemMetrics } from './system-metrics';

export interface SystemMonitorDeps {
  database: Database;
  redis?: { ping(): Promise<unknown>; status?: string };
  engines: Engines;
  maintenance: MaintenanceSwitch;
  keysCached(): number;
  config: {
    dataDir: string;
    nodeEnv: string;
    port: number;
    version: string;
    settings: Record<string, string | number | boolean | null>;
  };
}

/** `--version` of every engine starts a process each: a minute old is fresh enough (like /ready). */
const VERSIONS_TTL_MS = 60_000;
/** Several admins with the page open share one probe pass. */
const HEALTH_TTL_MS = 2000;

/**
 * The system monitor's figures (GET /admin/system/*), all measured: the services' probes (database, Redis, the API,
 * every engine with its pooled processes and recent failures), this node's memory, CPU, event loop, disk, queue and
 * HTTP traffic, business figures from the database, and alerts from thresholds.
 */
export class SystemMonitor {
  readonly http = new HttpWindow();
  readonly watch = new EngineWatch();
  private readonly system: SystemMetrics;
  private inFlight = 0;
  private versions: { at: number; value: Promise<Record<string, EngineHealth>> } | null = null;
  private health: { at: number; value: Promise<THealthReport> } | null = null;
  private readonly alertSince = new Map<string, string>();

  constructor(private readonly deps: SystemMonitorDeps) {
    this.system = new SystemMetrics({
      dataDir: deps.config.dataDir,
      nodeEnv: deps.config.nodeEnv,
      port: deps.config.port,
      version: deps.config.version,
      processing: () => deps.engines.stats(),
      http: () => {
        const s = this.http.stats();
        return s;
      },
      activeRequests: () => this.inFlight,
    });
    deps.engines.observers.push(this.watch.observe);
  }

  requestStarted(): void {
    this.inFlight++;
  }

  requestEnded(ms: number, status: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.http.record(ms, status);
  }

  stop(): void {
    this.system.stop();
  }

  /** Forget cached probes: the next call measures everything again (POST /admin/system/metrics/refresh). */
  refresh(): number {
    const n = (this.versions ? 1 : 0) + (this.health ? 1 : 0);
    this.versions = null;
    this.health = null;
    return n;
  }

  private engineVersions() {
    if (!this.versions || Date.now() - this.versions.at > VERSIONS_TTL_MS) {
      this.versions = { at: Date.now(), value: this.deps.engines.health() };
    }
    return this.versions.value;
  }

  getHealth(): Promise<THealthReport> {
    if (!this.health || Date.now() - this.health.at > HEALTH_TTL_MS) {
      this.health = { at: Date.now(), value: this.measureHealth() };
      this.health.value.catch(() => (this.health = null));
    }
    return this.health.value;
  }

  private async measureHealth(): Promise<THealthReport> {
    const started = performance.now();
    const metrics = await this.system.collect();
    const services = await probeServices({
      database: {
        driver: this.deps.database.driver === 'pglite' ? 'pglite (embedded)' : 'postgresql',
        ping: () => this.deps.database.ping(),
      },
      redis: this.deps.redis,
      engines: () => this.deps.engines.statuses(),
      engineVersions: () => this.engineVersions(),
      watch: this.watch,
      api: () => ({
        eventLoopP99Ms: metrics.event_loop.delay_p99_ms,
        avgResponseMs: metrics.http.avg_response_time_ms,
        keysCached: this.deps.keysCached(),
        queued: metrics.processing.queued,
      }),
    });
    const list = Object.entries(services);
    const down = list.filter(([, s]) => s.status === 'error');
    const overall: TOverallStatus = down.some(([n]) => n === 'database' || n === 'api')
      ? 'error'
      : list.some(([, s]) => s.status !== 'healthy')
        ? 'degraded'
        : 'healthy';
    const timed = list.map(([, s]) => s.response_time_ms).filter((x): x is number => x !== null);
    return {
      overall_status: overall,
      uptime: { seconds: Math.round(process.uptime()), started_at: this.system.startedAt.toISOString() },
      response_time_ms: Math.round((performance.now() - started) * 10) / 10,
      services,
      summary: {
        healthy: list.filter(([, s]) => s.status === 'healthy').length,
        degraded: list.filter(([, s]) => s.status === 'degraded').length,
        down: down.length,
        avg_response_time_ms: timed.length
          ? Math.round((timed.reduce((a, b) => a + b, 0) / timed.length) * 10) / 10
          : 0,
      },
      timestamp: new Date().toISOString(),
    };
  }

  metrics(): Promise<TSystemMetrics> {
    return this.system.collect();
  }

  async realtime(): Promise<TRealtimeMetrics> {
    const m = await this.system.collect();
    return {
      timestamp: new Date().toISOString(),
      memory: m.memory,
      cpu: m.cpu,
      event_loop: m.event_loop,
      processing: m.processing,
      http: m.http,
    };
  }

  async business(): Promise<TBusinessMetrics> {
    const db = this.deps.database.db;
    const [o, [catalogue]] = await Promise.all([
      getAdminOverview(db),
      db
        .select({
          total: sql<number>`coalesce(sum(${plans.price}), 0)::float8`,
          currency: sql<string>`coalesce(min(${plans.currency}), 'USD')`,
        })
        .from(plans)
        .where(and(eq(plans.isActive, true), eq(plans.isPublic, true))),
    ]);
    return {
      users: { total: o.users.total, active: o.users.active, new_today: o.users.newToday },
      api_keys: { total: o.apiKeys.total, active: o.apiKeys.active, new_today: o.apiKeys.newToday },
      requests: {
        today: o.requests.today,
        this_month: o.requests.thisMonth,
        total: o.requests.total,
        success_rate: o.successRate,
        error_rate: o.errorRate,
        avg_response_time_ms: o.avgResponseTime,
      },
      plans: { pricing: { total_value: Number(catalogue?.total ?? 0), currency: catalogue?.currency ?? 'USD' } },
      revenue: {
        monthly: o.revenue.monthly,
        currency: o.revenue.currency,
        active_subscriptions: o.revenue.activeSubscriptions,
      },
    };
  }

  async alerts(): Promise<TAlertsReport> {
    const [health, system] = await Promise.all([this.getHealth(), this.system.collect()]);
    return this.evaluate(health, system);
  }

  private evaluate(health: THealthReport, system: TSystemMetrics): TAlertsReport {
    const now = new Date().toISOString();
    const report = evaluateAlerts(health, system, defaultThresholds, (id) => {
      if (!this.alertSince.has(id)) this.alertSince.set(id, now);
      return this.alertSince.get(id)!;
    });
    // An alert that cleared starts afresh next time.
    const live = new Set(report.alerts.map((a) => a.id));
    for (const id of this.alertSince.keys()) if (!live.has(id)) this.alertSince.delete(id);
    return report;
  }

  async monitor(): Promise<TMonitorReport> {
    const [health, system, business, maintenance] = await Promise.all([
      this.getHealth(),
      this.system.collect(),
      this.business(),
      this.deps.maintenance.read(),
    ]);
    return { ...health, system, business, alerts: this.evaluate(health, system), maintenance };
  }

  /** Checks an operator runs when something is wrong: each says what it found and how long it took. */
  async diagnostic() {
    const checks: Array<{ name: string; ok: boolean; detail: string; duration_ms: number }> = [];
    const check = async (name: string, fn: () => Promise<string>) => {
      const started = performance.now();
      try {
        checks.push({ name, ok: true, detail: await fn(), duration_ms: Math.round(performance.now() - started) });
      } catch (err) {
        checks.push({
          name,
          ok: false,
          detail: (err as Error).message,
          duration_ms: Math.round(performance.now() - started),
        });
      }
    };
    await check('database', async () => {
      await this.deps.database.ping();
      const [m] = await this.deps.database.sql.query<{ n: number; last: string }>(
        'SELECT count(*)::int AS n, max(name) AS last FROM schema_migrations',
      );
      return `${this.deps.database.driver}: ${m?.n ?? 0} migrations applied, last ${m?.last ?? 'none'}`;
    });
    if (this.deps.redis) await check('redis', async () => `PING answered ${String(await this.deps.redis!.ping())}`);
    await check('data directory', async () => {
      await access(this.deps.config.dataDir, constants.W_OK);
      return `${this.deps.config.dataDir} is writable`;
    });
    this.versions = null;
    const versions = await this.engineVersions();
    for (const [id, v] of Object.entries(versions)) {
      checks.push({
        name: `engine ${id}`,
        ok: v.ok,
        detail: v.ok ? `version ${v.version ?? 'unknown'}` : (v.message ?? 'failing'),
        duration_ms: v.ms ?? 0,
      });
    }
    return { checks, config: this.deps.config.settings };
  }

  services(): Promise<{ services: Record<string, TServiceHealth>; summary: THealthReport['summary'] }> {
    return this.getHealth().then((h) => ({ services: h.services, summary: h.summary }));
  }
}
