import { useState } from 'react';
import { Activity, AlertTriangle, Clock, Gauge, RefreshCw, Search, ServerCrash, Wrench } from 'lucide-react';
import { hasCapability, type TAlert, type TServiceHealth } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { StatCard } from '@/components/ui/stat-card';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { cn } from '@/utils/cn';
import { isAdminRole, roleLabel } from '@/utils/role';
import { useClearCache, useHealth, useMonitor, useRealtime, useRefreshNow, useSetMaintenance } from '../api/monitor';
import { useTranslation } from 'react-i18next';
import { locale } from '@/utils/format';

const TABS = ['Overview', 'Services', 'Metrics', 'Alerts'] as const;
type Tab = (typeof TABS)[number];

/** Spec-2 §4: healthy, degraded, error shown as Down, anything else unknown. */
const statusLabel = (s: string) =>
  s === 'healthy' ? 'Healthy' : s === 'degraded' ? 'Degraded' : s === 'error' ? 'Down' : 'Unknown';
const statusTone = (s: string) =>
  (s === 'healthy' ? 'green' : s === 'degraded' ? 'amber' : s === 'error' ? 'rose' : 'slate') as
    'green' | 'amber' | 'rose' | 'slate';
const levelTone = { critical: 'rose', error: 'rose', warning: 'amber', info: 'slate' } as const;
const levelOrder = { critical: 0, error: 1, warning: 2, info: 3 } as const;
const cut = (s: string, n = 50) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function uptimeText(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d} j ${h} h` : h ? `${h} h ${m} min` : `${m} min ${Math.floor(seconds % 60)} s`;
}

/** Spec-2 §9: memory colour at 50, 75 and 90 %. */
const memoryColour = (p: number) =>
  p >= 90 ? 'bg-rose-500' : p >= 75 ? 'bg-amber-500' : p >= 50 ? 'bg-yellow-400' : 'bg-emerald-500';

function Restricted({ role }: { role: string }) {
  const { t } = useTranslation();
  return (
    <RestrictedCard testId="monitor-restricted" title={t('monitorPage.accessRestricted')}>
      {t('monitorPage.theSystemMonitorIsFor')} <strong>{roleLabel(role)}</strong>.
    </RestrictedCard>
  );
}

function ServiceCard({ name, s }: { name: string; s: TServiceHealth }) {
  const { t } = useTranslation();
  const details = Object.entries(s.details ?? {}).filter(([, v]) => v !== null && v !== '');
  return (
    <Card data-testid={`service-card-${name}`}>
      <CardContent className="space-y-2 p-4">
        <div className="flex items-center gap-2">
          <h3 className="font-semibold capitalize text-slate-900">{name}</h3>
          {s.critical && <span className="text-xs text-slate-400">{t('monitorPage.critical')}</span>}
          <Badge tone={statusTone(s.status)} className="ml-auto">
            {statusLabel(s.status)}
          </Badge>
        </div>
        <p className="text-sm text-slate-600">
          {s.response_time_ms === null ? t('monitorPage.noProbeYet') : `${s.response_time_ms} ms`}
          {s.connection ? ` · ${s.connection}` : ''}
        </p>
        {s.error && (
          <p className="text-sm text-rose-700" title={s.error}>
            {cut(s.error)}
          </p>
        )}
        {details.length > 0 && (
          <dl className="grid grid-cols-2 gap-x-3 text-xs text-slate-500">
            {details.slice(0, 10).map(([k, v]) => (
              <div key={k} className="truncate">
                {k}: <span className="text-slate-700">{String(v)}</span>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/system-monitor and /admin/monitor (spec-2 "System monitor"), on the server's real measurements. */
export function MonitorPage() {
  const { t } = useTranslation();
  const role = useAuthStore((s) => s.user?.role ?? 'user');
  const allowed = isAdminRole(role);
  const [auto, setAuto] = useState(true);
  const [tab, setTab] = useState<Tab>('Overview');
  const [filter, setFilter] = useState('');
  const [message, setMessage] = useState('');
  const full = useMonitor(allowed, auto);
  const health = useHealth(allowed, auto);
  const realtime = useRealtime(allowed, auto);
  const refresh = useRefreshNow();
  const maintenance = useSetMaintenance();
  const clearCache = useClearCache();

  if (!allowed)
    return (
      <>
        <PageHeader title={t('monitorPage.systemMonitor')} />
        <Restricted role={role} />
      </>
    );

  const report = full.data;
  const h = health.data ?? report;
  const system = report?.system;
  const live = realtime.data;
  const memory = live?.memory ?? system?.memory;
  const alerts = [...(report?.alerts.alerts ?? [])].sort(
    (a: TAlert, b: TAlert) => levelOrder[a.level] - levelOrder[b.level],
  );
  const services = Object.entries(h?.services ?? {});
  const failing = services.find(([, s]) => s.error);
  const firstError =
    (full.error && errorMessage(full.error, t('monitorPage.notAnswering'))) ||
    (health.error && errorMessage(health.error, t('monitorPage.notAnswering'))) ||
    (failing ? `${failing[0]}: ${cut(failing[1].error!)}` : null);
  const status = h?.overall_status;

  return (
    <>
      <PageHeader
        title={t('monitorPage.systemMonitor')}
        description={t('monitorPage.servicesEnginesThisNodeAnd')}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                role="switch"
                aria-label={t('monitorPage.autoRefresh')}
                checked={auto}
                onChange={(e) => setAuto(e.target.checked)}
                className="h-4 w-4 accent-indigo-600"
              />
              {t('monitorPage.autoRefresh')} {auto ? 'on' : 'off'}
            </label>
            <Button size="sm" variant="secondary" onClick={() => refresh.mutate()} isLoading={refresh.isPending}>
              {!refresh.isPending && <RefreshCw className="h-4 w-4" aria-hidden="true" />} {t('monitorPage.refreshNow')}
            </Button>
          </div>
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-3 text-sm">
        <Badge
          tone={status === 'healthy' ? 'green' : status === 'degraded' ? 'amber' : status ? 'rose' : 'slate'}
          data-testid="monitor-status"
        >
          {status ?? 'loading'}
        </Badge>
        <span className="text-slate-600" data-testid="monitor-uptime">
          {t('monitorPage.uptime')} {h ? uptimeText(h.uptime.seconds) : '…'}
        </span>
        {report?.maintenance.enabled && <Badge tone="amber">{t('monitorPage.maintenance')}</Badge>}
      </div>

      {firstError && (
        <Alert tone="error" title={t('monitorPage.systemErrorDetected')} data-testid="monitor-error">
          <span>{firstError}</span>{' '}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              void full.refetch();
              void health.refetch();
            }}
          >
            {t('monitorPage.retryConnection')}
          </Button>
        </Alert>
      )}

      <div
        role="tablist"
        aria-label={t('monitorPage.monitorSections')}
        className="my-4 flex gap-1 border-b border-slate-200"
      >
        {TABS.map((t) => (
          <button
            key={t}
            role="tab"
            type="button"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={cn(
              'flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium',
              tab === t
                ? 'border-indigo-600 text-indigo-700'
                : 'border-transparent text-slate-500 hover:text-slate-700',
            )}
          >
            {t}
            {t === 'Alerts' && alerts.length > 0 && (
              <span className="rounded-full bg-rose-100 px-1.5 text-xs text-rose-700" data-testid="alerts-count">
                {alerts.length}
              </span>
            )}
          </button>
        ))}
      </div>

      {tab === 'Overview' && (
        <div className="space-y-6" role="tabpanel" aria-label={t('monitorPage.overview')}>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <StatCard
              label={t('monitorPage.systemStatus')}
              value={status ? statusLabel(status) : '…'}
              icon={Activity}
              tone={status === 'healthy' ? 'green' : 'amber'}
            />
            <StatCard label={t('monitorPage.uptime')} value={h ? uptimeText(h.uptime.seconds) : '…'} icon={Clock} />
            <StatCard
              label={t('monitorPage.responseTime')}
              value={h ? `${h.summary.avg_response_time_ms} ms` : '…'}
              icon={Gauge}
              tone="sky"
            />
            <StatCard
              label={t('monitorPage.activeAlerts')}
              value={alerts.length}
              icon={AlertTriangle}
              tone={alerts.length ? 'rose' : 'green'}
            />
          </div>
          {report && (
            <Card>
              <CardContent className="grid grid-cols-2 gap-4 p-5 text-sm sm:grid-cols-4" data-testid="business-metrics">
                <div>
                  {t('monitorPage.users')} <strong>{report.business.users.total}</strong> (
                  {report.business.users.active} {t('monitorPage.active')}
                </div>
                <div>
                  {t('monitorPage.apiKeys')} <strong>{report.business.api_keys.total}</strong>
                </div>
                <div>
                  {t('monitorPage.requestsToday')} <strong>{report.business.requests.today}</strong>
                </div>
                <div>
                  {t('monitorPage.thisMonth')} <strong>{report.business.requests.this_month}</strong>
                </div>
                <div>
                  {t('monitorPage.successRate')} <strong>{report.business.requests.success_rate} %</strong>
                </div>
                <div>
                  {t('monitorPage.avgResponse')}{' '}
                  <strong>
                    {report.business.requests.avg_response_time_ms} {t('monitorPage.ms')}
                  </strong>
                </div>
                <div>
                  {t('monitorPage.revenue')}{' '}
                  <strong>
                    {report.business.revenue.monthly.toLocaleString('fr-FR')} {report.business.revenue.currency}
                  </strong>
                </div>
                <div>
                  {t('monitorPage.subscriptions')} <strong>{report.business.revenue.active_subscriptions}</strong>
                </div>
              </CardContent>
            </Card>
          )}
          {live && (
            <Card>
              <CardContent className="grid grid-cols-2 gap-4 p-5 text-sm sm:grid-cols-4" data-testid="realtime-metrics">
                <div>
                  {t('monitorPage.cpu')} <strong>{live.cpu.usage_percent} %</strong>
                </div>
                <div>
                  {t('monitorPage.eventLoopP99')}{' '}
                  <strong>
                    {live.event_loop.delay_p99_ms} {t('monitorPage.ms')}
                  </strong>
                </div>
                <div>
                  {t('monitorPage.processing')}{' '}
                  <strong>
                    {live.processing.running}/{live.processing.capacity}
                  </strong>{' '}
                  ({live.processing.queued} {t('monitorPage.queued')}
                </div>
                <div>
                  {t('monitorPage.http5Min')} <strong>{live.http.requests}</strong> {t('monitorPage.req')}{' '}
                  {live.http.avg_response_time_ms} {t('monitorPage.msAvg')}
                </div>
              </CardContent>
            </Card>
          )}
          {hasCapability(role, 'maintenance') && (
            <Card>
              <CardContent className="space-y-3 p-5">
                <h2 className="flex items-center gap-2 font-semibold text-slate-900">
                  <Wrench className="h-4 w-4" aria-hidden="true" /> {t('monitorPage.maintenance')}
                </h2>
                <p className="text-sm text-slate-600">
                  {report?.maintenance.enabled
                    ? t('monitorPage.onSince', {
                        since: new Date(report.maintenance.since!).toLocaleString(locale()),
                        message: report.maintenance.message,
                      })
                    : t('monitorPage.offProcessingRoutesAnswerNormally')}
                </p>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input
                    aria-label={t('monitorPage.maintenanceMessage')}
                    placeholder={t('monitorPage.messageShownToUsers')}
                    value={message}
                    onChange={(e) => setMessage(e.target.value)}
                  />
                  <Button
                    data-testid="maintenance-toggle"
                    variant={report?.maintenance.enabled ? 'secondary' : 'danger'}
                    isLoading={maintenance.isPending}
                    onClick={() =>
                      maintenance.mutate({ enabled: !report?.maintenance.enabled, ...(message ? { message } : {}) })
                    }
                  >
                    {report?.maintenance.enabled ? t('monitorPage.endMaintenance') : t('monitorPage.startMaintenance')}
                  </Button>
                  <Button variant="secondary" onClick={() => clearCache.mutate()} isLoading={clearCache.isPending}>
                    {t('monitorPage.clearCache')}
                  </Button>
                </div>
              </CardContent>
            </Card>
          )}
        </div>
      )}

      {tab === 'Services' && (
        <div className="space-y-4" role="tabpanel" aria-label={t('monitorPage.services')}>
          {h && (
            <div className="flex flex-wrap gap-3 text-sm" data-testid="services-summary">
              <Badge tone="green">
                {h.summary.healthy} {t('monitorPage.healthy')}
              </Badge>
              <Badge tone="amber">
                {h.summary.degraded} {t('monitorPage.degraded')}
              </Badge>
              <Badge tone="rose">
                {h.summary.down} {t('monitorPage.down')}
              </Badge>
              <span className="text-slate-600">
                {t('monitorPage.avg')} {h.summary.avg_response_time_ms} {t('monitorPage.ms')}
              </span>
            </div>
          )}
          <div className="relative max-w-sm">
            <Search className="absolute left-3 top-3 h-4 w-4 text-slate-400" aria-hidden="true" />
            <Input
              aria-label={t('monitorPage.searchServices')}
              className="pl-9"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          </div>
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {services
              .filter(([n]) => n.toLowerCase().includes(filter.trim().toLowerCase()))
              .map(([n, s]) => (
                <ServiceCard key={n} name={n} s={s} />
              ))}
          </div>
        </div>
      )}

      {tab === 'Metrics' && system && memory && (
        <div className="grid gap-4 lg:grid-cols-2" role="tabpanel" aria-label={t('monitorPage.metrics')}>
          <Card>
            <CardContent className="space-y-3 p-5 text-sm">
              <h2 className="font-semibold text-slate-900">{t('monitorPage.memory')}</h2>
              <div className="h-3 overflow-hidden rounded-full bg-slate-100">
                <div
                  data-testid="memory-bar"
                  className={cn('h-full', memoryColour(memory.usage_percent))}
                  style={{ width: `${Math.min(100, Math.max(0, memory.usage_percent))}%` }}
                />
              </div>
              <p>
                {memory.usage_percent} {t('monitorPage.ofTheMachineUsedRss')} {memory.rss_mb} {t('monitorPage.mbHeap')}{' '}
                {memory.heap_used_mb}/{memory.heap_total_mb} {t('monitorPage.mbExternal')} {memory.external_mb}{' '}
                {t('monitorPage.mb')}
              </p>
              {memory.usage_percent > 85 && <p className="text-amber-700">{t('monitorPage.memoryIsHighAddMemory')}</p>}
              <p>
                {t('monitorPage.disk')}
                {system.disk.path}): {system.disk.usage_percent} {t('monitorPage.used')} {system.disk.free_mb}{' '}
                {t('monitorPage.mbFree')}
              </p>
            </CardContent>
          </Card>
          <Card>
            <CardContent className="space-y-1 p-5 text-sm" data-testid="process-details">
              <h2 className="mb-2 font-semibold text-slate-900">{t('monitorPage.processAndEnvironment')}</h2>
              <p>
                {t('monitorPage.pid')} {system.process.pid} {t('monitorPage.node')} {system.process.node_version} ·{' '}
                {system.process.platform}/{system.process.arch}
              </p>
              <p>
                {t('monitorPage.uptime')} {uptimeText(system.process.uptime_seconds)} · {system.process.active_handles}{' '}
                {t('monitorPage.handles')} {system.process.active_requests} {t('monitorPage.requestsInFlight')}
              </p>
              <p>
                {t('monitorPage.environment')} {system.environment.node_env} {t('monitorPage.port')}{' '}
                {system.environment.port} {t('monitorPage.version')} {system.environment.version}
              </p>
              {system.http.avg_response_time_ms > 1000 && (
                <p className="text-amber-700">{t('monitorPage.responsesAreSlowLookAt')}</p>
              )}
            </CardContent>
          </Card>
        </div>
      )}

      {tab === 'Alerts' && (
        <div className="space-y-3" role="tabpanel" aria-label={t('monitorPage.alerts')}>
          {alerts.length === 0 ? (
            <p className="text-sm text-slate-600">{t('monitorPage.noActiveAlert')}</p>
          ) : (
            alerts.map((a) => (
              <Card key={a.id} data-testid="alert-item" data-level={a.level}>
                <CardContent className="flex items-start gap-3 p-4 text-sm">
                  <ServerCrash className="mt-0.5 h-4 w-4 text-slate-400" aria-hidden="true" />
                  <div className="flex-1">
                    <p className="text-slate-900">{a.message}</p>
                    <p className="text-xs text-slate-500">
                      {t('monitorPage.since')} {new Date(a.since).toLocaleTimeString('fr-FR')}
                    </p>
                  </div>
                  <Badge tone={levelTone[a.level]}>{a.level}</Badge>
                </CardContent>
              </Card>
            ))
          )}
          {report && (
            <p className="text-xs text-slate-500" data-testid="alert-thresholds">
              {t('monitorPage.thresholdsMemory')} {report.alerts.thresholds.memory_usage_percent}{' '}
              {t('monitorPage.responseTime2')} {report.alerts.thresholds.response_time_ms} {t('monitorPage.msDisk')}{' '}
              {report.alerts.thresholds.disk_usage_percent} {t('monitorPage.t5xx')}{' '}
              {report.alerts.thresholds.error_rate_percent} {t('monitorPage.queue')}{' '}
              {report.alerts.thresholds.queue_length}
            </p>
          )}
        </div>
      )}
    </>
  );
}
