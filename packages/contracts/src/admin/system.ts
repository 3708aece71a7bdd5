import { z } from 'zod';
import { successEnvelope } from '../common';

// System monitor (spec-2 section 3 "System monitor data": snake_case as the spec names the fields)

export const serviceStatuses = ['healthy', 'degraded', 'error', 'unknown'] as const;
export const ZServiceStatus = z.enum(serviceStatuses);
export type TServiceStatus = z.infer<typeof ZServiceStatus>;

export const ZServiceHealth = z
  .object({
    status: ZServiceStatus,
    response_time_ms: z.number().nullable(),
    connection: z.string().optional(),
    memory_used_mb: z.number().optional(),
    queue_length: z.number().int().optional(),
    keys_count: z.number().int().optional(),
    error: z.string().nullable().optional(),
    critical: z.boolean(),
    details: z.record(z.string(), z.unknown()).optional(),
    checked_at: z.string(),
  })
  .meta({ id: 'ServiceHealth' });
export type TServiceHealth = z.infer<typeof ZServiceHealth>;

export const ZOverallStatus = z.enum(['healthy', 'degraded', 'error']);
export type TOverallStatus = z.infer<typeof ZOverallStatus>;

export const ZSystemMetrics = z
  .object({
    memory: z.object({
      heap_used_mb: z.number(),
      heap_total_mb: z.number(),
      rss_mb: z.number(),
      external_mb: z.number(),
      system_total_mb: z.number(),
      system_free_mb: z.number(),
      usage_percent: z.number().describe('RSS over MEMORY_LIMIT_MB when set, else used system memory'),
    }),
    cpu: z.object({ load_1m: z.number(), cores: z.number().int(), usage_percent: z.number() }),
    event_loop: z.object({ delay_p50_ms: z.number(), delay_p99_ms: z.number(), utilization: z.number() }),
    disk: z.object({ path: z.string(), total_mb: z.number(), free_mb: z.number(), usage_percent: z.number() }),
    process: z.object({
      pid: z.number().int(),
      node_version: z.string(),
      platform: z.string(),
      arch: z.string(),
      uptime_seconds: z.number(),
      active_handles: z.number().int(),
      active_requests: z.number().int(),
    }),
    processing: z.object({
      running: z.number().int(),
      queued: z.number().int(),
      capacity: z.number().int(),
    }),
    http: z.object({
      requests: z.number().int(),
      errors_5xx: z.number().int(),
      error_rate_percent: z.number(),
      avg_response_time_ms: z.number(),
      p95_response_time_ms: z.number(),
      window_seconds: z.number().int(),
    }),
    environment: z.object({ node_env: z.string(), port: z.number().int(), version: z.string() }),
  })
  .meta({ id: 'SystemMetrics' });
export type TSystemMetrics = z.infer<typeof ZSystemMetrics>;

export const ZBusinessMetrics = z
  .object({
    users: z.object({ total: z.number().int(), active: z.number().int(), new_today: z.number().int() }),
    api_keys: z.object({ total: z.number().int(), active: z.number().int(), new_today: z.number().int() }),
    requests: z.object({
      today: z.number().int(),
      this_month: z.number().int(),
      total: z.number().int(),
      success_rate: z.number(),
      error_rate: z.number(),
      avg_response_time_ms: z.number(),
    }),
    plans: z.object({ pricing: z.object({ total_value: z.number(), currency: z.string() }) }),
    revenue: z.object({ monthly: z.number(), currency: z.string(), active_subscriptions: z.number().int() }),
  })
  .meta({ id: 'BusinessMetrics' });
export type TBusinessMetrics = z.infer<typeof ZBusinessMetrics>;

export const alertLevels = ['critical', 'error', 'warning', 'info'] as const;
export const ZAlert = z
  .object({
    id: z.string(),
    level: z.enum(alertLevels),
    type: z.string(),
    message: z.string(),
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    since: z.string(),
  })
  .meta({ id: 'Alert' });
export type TAlert = z.infer<typeof ZAlert>;

export const ZAlertThresholds = z.object({
  memory_usage_percent: z.number(),
  response_time_ms: z.number(),
  disk_usage_percent: z.number(),
  error_rate_percent: z.number(),
  queue_length: z.number(),
});
export type TAlertThresholds = z.infer<typeof ZAlertThresholds>;

export const ZAlertsReport = z.object({
  alerts: z.array(ZAlert),
  alert_count: z.object({
    critical: z.number().int(),
    error: z.number().int(),
    warning: z.number().int(),
    info: z.number().int(),
    total: z.number().int(),
  }),
  thresholds: ZAlertThresholds,
});
export type TAlertsReport = z.infer<typeof ZAlertsReport>;

export const ZHealthReport = z.object({
  overall_status: ZOverallStatus,
  uptime: z.object({ seconds: z.number(), started_at: z.string() }),
  response_time_ms: z.number(),
  services: z.record(z.string(), ZServiceHealth),
  summary: z.object({
    healthy: z.number().int(),
    degraded: z.number().int(),
    down: z.number().int(),
    avg_response_time_ms: z.number(),
  }),
  timestamp: z.string(),
});
export type THealthReport = z.infer<typeof ZHealthReport>;

export const ZMaintenanceState = z
  .object({
    enabled: z.boolean(),
    message: z.string().nullable(),
    since: z.string().nullable(),
    by: z.string().nullable(),
    retryAfterSeconds: z.number().int(),
  })
  .meta({ id: 'MaintenanceState' });
export type TMaintenanceState = z.infer<typeof ZMaintenanceState>;

export const ZMonitorReport = ZHealthReport.extend({
  system: ZSystemMetrics,
  business: ZBusinessMetrics,
  alerts: ZAlertsReport,
  maintenance: ZMaintenanceState,
}).meta({ id: 'MonitorReport' });
export type TMonitorReport = z.infer<typeof ZMonitorReport>;

export const ZRealtimeMetrics = z.object({
  timestamp: z.string(),
  memory: ZSystemMetrics.shape.memory,
  cpu: ZSystemMetrics.shape.cpu,
  event_loop: ZSystemMetrics.shape.event_loop,
  processing: ZSystemMetrics.shape.processing,
  http: ZSystemMetrics.shape.http,
});
export type TRealtimeMetrics = z.infer<typeof ZRealtimeMetrics>;

export const ZMonitorResponse = successEnvelope(ZMonitorReport);
export const ZHealthReportResponse = successEnvelope(ZHealthReport);
export const ZServicesResponse = successEnvelope(
  z.object({ services: z.record(z.string(), ZServiceHealth), summary: ZHealthReport.shape.summary }),
);
export const ZSystemMetricsResponse = successEnvelope(ZSystemMetrics);
export const ZBusinessMetricsResponse = successEnvelope(ZBusinessMetrics);
export const ZRealtimeResponse = successEnvelope(ZRealtimeMetrics);
export const ZAlertsResponse = successEnvelope(ZAlertsReport);
export const ZSystemStatsResponse = successEnvelope(z.object({ system: ZSystemMetrics, business: ZBusinessMetrics }));
export const ZDiagnosticResponse = successEnvelope(
  z.object({
    checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), duration_ms: z.number() })),
    config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  }),
);

export const ZMaintenanceRequest = z.object({
  enabled: z.boolean(),
  message: z.string().trim().max(500).optional(),
  retryAfterSeconds: z.number().int().min(30).max(86_400).default(600),
});
export const ZMaintenanceResponse = successEnvelope(z.object({ maintenance: ZMaintenanceState }));

export const ZCacheClearResponse = successEnvelope(z.object({ cleared: z.record(z.string(), z.number().int()) }));

export const ZTestServiceRequest = z.object({
  url: z.string().trim().min(1).max(2048),
  timeout: z.number().int().min(100).max(30_000).default(5000),
});
export const ZTestServiceResponse = successEnvelope(
  z.object({
    url: z.string(),
    reachable: z.boolean(),
    statusCode: z.number().int().nullable(),
    response_time_ms: z.number(),
    error: z.string().nullable(),
  }),
);
