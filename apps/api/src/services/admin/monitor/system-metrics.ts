import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { TSystemMetrics } from '@docflow/contracts';

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
const pct = (x: number) => Math.round(x * 1000) / 10;

export interface SystemMetricsSource {
  dataDir: string;
  nodeEnv: string;
  port: number;
  version: string;
  processing(): { running: number; queued: number; concurrency: number };
  http(): TSystemMetrics['http'];
  activeRequests(): number;
}

/**
 * Memory, CPU, event loop, disk and process figures of this node. CPU and event-loop figures are over the time since
 * the previous sample (at least a second), so each monitor refresh shows the recent past rather than the process
 * lifetime.
 */
export class SystemMetrics {
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });
  private lastCpu = process.cpuUsage();
  private lastAt = performance.now();
  private lastElu: EventLoopUtilization = performance.eventLoopUtilization();
  private cpuPercent = 0;
  private elu = 0;
  readonly startedAt = new Date(Date.now() - process.uptime() * 1000);

  constructor(private readonly source: SystemMetricsSource) {
    this.loop.enable();
  }

  stop(): void {
    this.loop.disable();
  }

  private sampleRates(): { p50: number; p99: number } {
    const now = performance.now();
    const elapsed = now - this.lastAt;
    const delay = { p50: this.loop.percentile(50) / 1e6, p99: this.loop.percentile(99) / 1e6 };
    if (elapsed >= 1000) {
      const cpu = process.cpuUsage(this.lastCpu);
      this.cpuPercent = pct((cpu.user + cpu.system) / 1000 / elapsed / os.availableParallelism());
      const elu = performance.eventLoopUtilization(this.lastElu);
      this.elu = Math.round(elu.utilization * 1000) / 1000;
      this.lastCpu = process.cpuUsage();
      this.lastElu = performance.eventLoopUtilization();
      this.lastAt = now;
      this.loop.reset();
    }
    return delay;
  }

  async collect(): Promise<TSystemMetrics> {
    const m = process.memoryUsage();
    const total = os.totalmem();
    const free = os.freemem();
    const delay = this.sampleRates();
    let disk = { path: this.source.dataDir, total_mb: 0, free_mb: 0, usage_percent: 0 };
    try {
      const s = await statfs(this.source.dataDir);
      const t = s.blocks * s.bsize;
      const f = s.bavail * s.bsize;
      disk = { path: this.source.dataDir, total_mb: mb(t), free_mb: mb(f), usage_percent: t ? pct((t - f) / t) : 0 };
    } catch {
      /* reported as zeros: the diagnostic names the failure */
    }
    const p = this.source.processing();
    return {
      memory: {
        heap_used_mb: mb(m.heapUsed),
        heap_total_mb: mb(m.heapTotal),
        rss_mb: mb(m.rss),
        external_mb: mb(m.external),
        system_total_mb: mb(total),
        system_free_mb: mb(free),
        usage_percent: total ? pct((total - free) / total) : 0,
      },
      cpu: {
        load_1m: Math.round(os.loadavg()[0]! * 100) / 100,
        cores: os.availableParallelism(),
        usage_percent: this.cpuPercent,
      },
      event_loop: {
        delay_p50_ms: Math.round(delay.p50 * 10) / 10,
        delay_p99_ms: Math.round(delay.p99 * 10) / 10,
        utilization: this.elu,
      },
      disk,
      process: {
        pid: process.pid,
        node_version: process.version,
        platform: process.platform,
        arch: process.arch,
        uptime_seconds: Math.round(process.uptime()),
        active_handles: process.getActiveResourcesInfo().length,
        active_requests: this.source.activeRequests(),
      },
      processing: { running: p.running, queued: p.queued, capacity: p.concurrency },
      http: this.source.http(),
      environment: { node_env: this.source.nodeEnv, port: this.source.port, version: this.source.version },
    };
  }
}
