import type { TAlert, TAlertsReport, TAlertThresholds, THealthReport, TSystemMetrics } from '@docflow/contracts';

export const defaultThresholds: TAlertThresholds = {
  memory_usage_percent: 90,
  response_time_ms: 1000,
  disk_usage_percent: 90,
  error_rate_percent: 5,
  queue_length: 20,
};

const order = { critical: 0, error: 1, warning: 2, info: 3 } as const;

/**
 * Alerts from thresholds (spec-2: memory, response time, disk; and error rate and queue depth) and from services
 * that are not healthy. A value past its threshold is a warning, past the threshold's midpoint to 100 % (or twice it)
 * critical; a critical service down is critical. `since` is kept by the caller across refreshes.
 */
export function evaluateAlerts(
  health: THealthReport,
  system: TSystemMetrics,
  t: TAlertThresholds,
  since: (id: string) => string,
): TAlertsReport {
  const alerts: TAlert[] = [];
  const add = (a: Omit<TAlert, 'since'>) => alerts.push({ ...a, since: since(a.id) });
  const over = (
    id: string,
    type: string,
    value: number,
    threshold: number,
    critical: number,
    message: (v: number) => string,
  ) => {
    if (value < threshold) return;
    add({ id, type, level: value >= critical ? 'critical' : 'warning', message: message(value), value, threshold });
  };
  over(
    'memory',
    'memory',
    system.memory.usage_percent,
    t.memory_usage_percent,
    (t.memory_usage_percent + 100) / 2 + 2.5,
    (v) => `Mémoire système utilisée à ${v} %`,
  );
  over(
    'disk',
    'disk',
    system.disk.usage_percent,
    t.disk_usage_percent,
    (t.disk_usage_percent + 100) / 2 + 2.5,
    (v) => `Disque des données (${system.disk.path}) plein à ${v} %`,
  );
  if (system.http.requests >= 5) {
    over(
      'response_time',
      'response_time',
      system.http.avg_response_time_ms,
      t.response_time_ms,
      t.response_time_ms * 3,
      (v) => `Temps de réponse moyen de ${v} ms sur ${system.http.window_seconds / 60} min`,
    );
    over(
      'error_rate',
      'error_rate',
      system.http.error_rate_percent,
      t.error_rate_percent,
      t.error_rate_percent * 4,
      (v) => `${v} % de réponses en erreur serveur (5xx) sur ${system.http.window_seconds / 60} min`,
    );
  }
  over(
    'queue',
    'queue',
    system.processing.queued,
    t.queue_length,
    t.queue_length * 2,
    (v) => `${v} traitements en attente d'un créneau`,
  );
  for (const [name, s] of Object.entries(health.services)) {
    if (s.status === 'healthy') continue;
    const level =
      s.status === 'error' ? (s.critical ? 'critical' : 'error') : s.status === 'degraded' ? 'warning' : 'info';
    add({
      id: `service:${name}`,
      type: 'service',
      level,
      message: `${name} : ${s.status === 'error' ? 'hors service' : s.status === 'degraded' ? 'dégradé' : 'état inconnu'}${s.error ? ` (${s.error})` : ''}`,
      value: s.response_time_ms,
      threshold: null,
    });
  }
  alerts.sort((a, b) => order[a.level] - order[b.level] || a.id.localeCompare(b.id));
  const countOf = (l: TAlert['level']) => alerts.filter((a) => a.level === l).length;
  return {
    alerts,
    alert_count: {
      critical: countOf('critical'),
      error: countOf('error'),
      warning: countOf('warning'),
      info: countOf('info'),
      total: alerts.length,
    },
    thresholds: t,
  };
}
