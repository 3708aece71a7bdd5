import { useMemo, useState } from 'react';
import {
  Activity,
  BarChart3,
  Bell,
  CalendarDays,
  CheckCircle2,
  Clock,
  DollarSign,
  FileText,
  Gauge,
  HeartPulse,
  KeyRound,
  QrCode,
  RefreshCw,
  ScanText,
  Server,
  Timer,
  Users,
} from 'lucide-react';
import { isAdminRole, type TUsageAnalytics, type TUsagePeriod } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { DataTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useUser } from '@/features/auth/stores/auth-store';
import { useAdminOverview, type AdminOverview } from '../api/get-admin-overview';
import { useSystemStatus } from '../api/get-system-status';
import { useUsage } from '../api/get-usage';
import { groupByCategory, toEndpointList, topEndpoints, type UsageCategoryId } from '../utils/endpoint-categories';
import { formatDate, formatMoney, formatMs, formatNumber, formatRate, formatRelative } from '../utils/format';
import {
  endpointBadgeTone,
  endpointSuccessBadge,
  rateOrDefault,
  successLabelTone,
  successRateLabel,
} from '../utils/success-rate';
import { PeriodSelector, periodLabel } from './period-selector';
import { RecommendationsList } from './recommendations-list';
import { SectionCard } from './section-card';
import { StatCard, StatCardSkeleton } from './stat-card';
import { RequestsErrorsChart, UsageAreaChart } from './usage-charts';

const categoryIcon: Record<UsageCategoryId, typeof FileText> = {
  pdf: FileText,
  conversion: RefreshCw,
  qrcode: QrCode,
  ocr: ScanText,
  other: Activity,
};
const categoryColor: Record<UsageCategoryId, string> = {
  pdf: 'bg-indigo-500',
  conversion: 'bg-sky-500',
  qrcode: 'bg-violet-500',
  ocr: 'bg-amber-500',
  other: 'bg-slate-400',
};

export interface AnalyticsPageProps {
  /** Unread notifications, composed in by the route (system insights). */
  unreadNotifications?: number;
}

function SystemOverview({
  overview,
  health,
  uptimeSeconds,
  loading,
}: {
  overview?: AdminOverview;
  health?: 'healthy' | 'degraded';
  uptimeSeconds?: number;
  loading: boolean;
}) {
  const cards = [
    {
      label: 'Total Users',
      icon: Users,
      value: overview ? formatNumber(overview.users.total) : '—',
      hint: overview
        ? `${formatNumber(overview.users.active)} active · ${formatNumber(overview.users.newToday)} new today`
        : null,
    },
    {
      label: 'Monthly Revenue',
      icon: DollarSign,
      value: overview ? formatMoney(overview.revenue.monthly, overview.revenue.currency) : '—',
      hint: overview ? `${formatNumber(overview.revenue.activeSubscriptions)} paying subscriptions` : null,
    },
    {
      label: 'System Health',
      icon: HeartPulse,
      value: health === 'healthy' ? 'Healthy' : health === 'degraded' ? 'Degraded' : '—',
      hint: overview ? `${formatRate(overview.successRate)} success · ${formatMs(overview.avgResponseTime)} avg` : null,
    },
    {
      label: 'Uptime',
      icon: Server,
      value: uptimeSeconds !== undefined ? `${Math.floor(uptimeSeconds / 86_400)} days` : '—',
      hint:
        uptimeSeconds !== undefined ? `${Math.floor((uptimeSeconds % 86_400) / 3600)} h since the last restart` : null,
    },
  ];
  return (
    <section
      aria-label="System Overview"
      className="rounded-2xl bg-gradient-to-br from-slate-900 via-slate-900 to-indigo-950 p-5 text-white shadow-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">System Overview</h2>
        <Badge tone="dark">Admin</Badge>
      </div>
      <div className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="rounded-xl bg-white/5 p-4 ring-1 ring-inset ring-white/10">
            <div className="flex items-center gap-2 text-sm text-slate-300">
              <c.icon className="h-4 w-4 text-indigo-300" aria-hidden="true" />
              {c.label}
            </div>
            <p className={cn('mt-2 text-2xl font-bold tabular-nums', loading && 'animate-pulse text-slate-500')}>
              {c.label === 'System Health' && health ? (
                <span className="inline-flex items-center gap-2">
                  <span
                    className={cn('h-2.5 w-2.5 rounded-full', health === 'healthy' ? 'bg-emerald-400' : 'bg-amber-400')}
                    aria-hidden="true"
                  />
                  {c.value}
                </span>
              ) : (
                c.value
              )}
            </p>
            {c.hint && <p className="mt-1 text-xs text-slate-400">{c.hint}</p>}
          </div>
        ))}
      </div>
    </section>
  );
}

function CategoryUsage({ usage }: { usage: TUsageAnalytics }) {
  const rows = useMemo(() => groupByCategory(toEndpointList(usage.usage.byEndpoint)), [usage]);
  const main = rows.filter((r) => r.id !== 'other');
  const other = rows.find((r) => r.id === 'other');
  return (
    <SectionCard title="Usage by category" description="Requests per endpoint group over the period">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {main.map((r) => {
          const Icon = categoryIcon[r.id];
          return (
            <div
              key={r.id}
              className="min-w-0 rounded-xl border border-slate-100 p-3 sm:p-4"
              data-testid={`category-${r.id}`}
            >
              <div className="flex items-center gap-2">
                <span
                  className={cn('grid h-8 w-8 shrink-0 place-items-center rounded-lg text-white', categoryColor[r.id])}
                >
                  <Icon className="h-4 w-4" aria-hidden="true" />
                </span>
                <h3 className="text-sm font-semibold leading-tight text-slate-900">{r.label}</h3>
              </div>
              <p className="mt-3 text-2xl font-bold tabular-nums text-slate-900">{formatNumber(r.requests)}</p>
              <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className={cn('h-full rounded-full', categoryColor[r.id])}
                  style={{ width: `${Math.min(100, r.share)}%` }}
                />
              </div>
              <p className="mt-1 text-xs text-slate-500">{formatRate(r.share)} of requests</p>
              {r.endpoints.length > 0 && (
                <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3">
                  {r.endpoints.map((e) => (
                    <li key={e.path} className="flex items-center justify-between gap-2 text-xs">
                      <code className="truncate font-mono text-slate-600">{e.path}</code>
                      <span className="tabular-nums text-slate-900">{formatNumber(e.requests)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
      {other && (
        <p
          className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500"
          data-testid="category-other"
        >
          <Activity className="h-3.5 w-3.5" aria-hidden="true" />
          <span>
            Other calls: <span className="font-medium tabular-nums text-slate-700">{formatNumber(other.requests)}</span>{' '}
            ({formatRate(other.share)})
          </span>
          {other.endpoints.map((e) => (
            <code key={e.path} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-600">
              {e.path} · {formatNumber(e.requests)}
            </code>
          ))}
        </p>
      )}
    </SectionCard>
  );
}

function TopEndpoints({ usage }: { usage: TUsageAnalytics }) {
  const rows = useMemo(() => topEndpoints(toEndpointList(usage.usage.byEndpoint), 8), [usage]);
  return (
    <SectionCard
      title="Top endpoints"
      description="The 8 busiest endpoints"
      className="lg:col-span-2"
      bodyClassName="p-0"
    >
      {rows.length === 0 ? (
        <p className="p-5 text-sm text-slate-500">No endpoint has been called in this period.</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {rows.map((e, i) => {
            const rate = rateOrDefault(e.successRate);
            const badge = endpointSuccessBadge(rate);
            return (
              <li key={e.path} className="flex items-center gap-3 px-5 py-3">
                <span className="w-5 text-right text-xs font-medium text-slate-400">{i + 1}</span>
                <code className="min-w-0 flex-1 truncate font-mono text-sm text-slate-800">{e.path}</code>
                {e.avgResponseTime !== undefined && (
                  <span className="hidden text-xs text-slate-500 sm:inline">{formatMs(e.avgResponseTime)}</span>
                )}
                <span className="w-16 text-right text-sm font-medium tabular-nums text-slate-900">
                  {formatNumber(e.requests)}
                </span>
                <Badge tone={endpointBadgeTone[badge]} data-badge={badge} className="w-20 justify-center">
                  {formatRate(rate)}
                </Badge>
              </li>
            );
          })}
        </ol>
      )}
    </SectionCard>
  );
}

function TopKeys({ usage }: { usage: TUsageAnalytics }) {
  const rows = useMemo(() => [...usage.usage.byApiKey].sort((a, b) => b.requests - a.requests).slice(0, 5), [usage]);
  const max = rows[0]?.requests ?? 0;
  return (
    <SectionCard title="Top API keys" description="The 5 most used keys">
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">No key has been used in this period.</p>
      ) : (
        <ol className="space-y-4">
          {rows.map((k) => (
            <li key={k.keyId}>
              <div className="flex items-center justify-between gap-2 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  <KeyRound className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                  <span className="truncate font-medium text-slate-800">{k.keyName || 'Unnamed Key'}</span>
                </span>
                <span className="tabular-nums text-slate-900">{formatNumber(k.requests)}</span>
              </div>
              <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className="h-full rounded-full bg-indigo-500"
                  style={{ width: `${max ? (k.requests / max) * 100 : 0}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
    </SectionCard>
  );
}

function SystemInsights({ usage, unreadNotifications }: { usage: TUsageAnalytics; unreadNotifications?: number }) {
  const monthly = usage.limits.utilizationRate.monthly;
  const items = [
    {
      icon: Gauge,
      label: 'Plan usage',
      value: `${formatRate(monthly)} of ${usage.limits.planDisplayName}`,
      detail: `${formatNumber(usage.limits.currentMonthUsage)} of ${formatNumber(usage.limits.maxRequestsPerMonth)} requests this month`,
      warn: monthly > 80,
    },
    {
      icon: Bell,
      label: 'Unread notifications',
      value: unreadNotifications === undefined ? '—' : formatNumber(unreadNotifications),
      detail: unreadNotifications ? 'Open the bell at the top to read them' : 'You are all caught up',
      warn: false,
    },
    {
      icon: CalendarDays,
      label: 'Member since',
      value: formatDate(usage.summary.memberSince, { year: 'numeric', month: 'long', day: 'numeric' }),
      detail: `${formatNumber(usage.summary.totalApiKeys)} API keys created`,
      warn: false,
    },
  ];
  return (
    <SectionCard title="System insights">
      <ul className="space-y-4">
        {items.map((it) => (
          <li key={it.label} className="flex gap-3">
            <span
              className={cn(
                'grid h-9 w-9 shrink-0 place-items-center rounded-lg',
                it.warn ? 'bg-amber-50 text-amber-600' : 'bg-slate-100 text-slate-600',
              )}
            >
              <it.icon className="h-4 w-4" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <p className="text-xs font-medium uppercase tracking-wide text-slate-400">{it.label}</p>
              <p className="font-medium text-slate-900">{it.value}</p>
              <p className="text-xs text-slate-500">{it.detail}</p>
            </div>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

function KeyActivityTable({ usage }: { usage: TUsageAnalytics }) {
  const total = usage.summary.totalRequests;
  const rows = useMemo(() => [...usage.usage.byApiKey].sort((a, b) => b.requests - a.requests), [usage]);
  return (
    <SectionCard title="API key activity" description="Requests per key over the period" bodyClassName="p-0">
      {rows.length === 0 ? (
        <p className="p-5 text-sm text-slate-500">No key activity in this period.</p>
      ) : (
        <DataTable
          minWidth={640}
          columns={[
            { label: 'Key' },
            { label: 'Requests', align: 'right' },
            { label: 'Success rate' },
            { label: '% of total', align: 'right' },
            { label: 'Last used' },
          ]}
        >
          {rows.map((k) => {
            const rate = rateOrDefault(k.successRate);
            const label = successRateLabel(rate);
            return (
              <tr key={k.keyId} data-testid="key-activity-row">
                <th scope="row" className="px-5 py-3 text-left font-medium text-slate-900">
                  <span className="flex items-center gap-2">
                    <KeyRound className="h-4 w-4 text-slate-400" aria-hidden="true" />
                    {k.keyName || 'Unnamed Key'}
                  </span>
                </th>
                <td className="px-5 py-3 text-right tabular-nums text-slate-900">{formatNumber(k.requests)}</td>
                <td className="px-5 py-3">
                  <span className="flex items-center gap-2">
                    <span className="tabular-nums text-slate-900">{formatRate(rate)}</span>
                    <Badge tone={successLabelTone[label]}>{label}</Badge>
                  </span>
                </td>
                <td className="px-5 py-3 text-right tabular-nums text-slate-600">
                  {formatRate(total > 0 ? (k.requests / total) * 100 : 0)}
                </td>
                <td className="px-5 py-3 text-slate-600">{formatRelative(k.lastUsed)}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </SectionCard>
  );
}

export function AnalyticsPage({ unreadNotifications }: AnalyticsPageProps) {
  const user = useUser();
  const isAdmin = isAdminRole(user?.role);
  const [period, setPeriod] = useState<TUsagePeriod>('last_30_days');
  const usageQuery = useUsage(period);
  const overviewQuery = useAdminOverview({ enabled: isAdmin });
  const systemQuery = useSystemStatus({ enabled: isAdmin });
  const usage = usageQuery.data;

  const errorText = usageQuery.isError
    ? isApiError(usageQuery.error)
      ? (usageQuery.error.serverMessage ?? usageQuery.error.message)
      : usageQuery.error.message
    : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Analytics"
        description={`Your API usage over the last ${periodLabel[period]}.`}
        actions={<PeriodSelector value={period} onChange={setPeriod} />}
      />

      {errorText && (
        <Alert title="Impossible de charger les statistiques d'utilisation">
          <p>{errorText}</p>
          <Button variant="link" size="sm" onClick={() => void usageQuery.refetch()}>
            Try again
          </Button>
        </Alert>
      )}

      <div
        className={cn(
          'grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4',
          usageQuery.isPlaceholderData && 'opacity-60 transition-opacity',
        )}
        aria-busy={usageQuery.isFetching || undefined}
      >
        {!usage ? (
          Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
        ) : (
          <>
            <StatCard
              label="Total Requests"
              icon={BarChart3}
              value={formatNumber(usage.summary.totalRequests)}
              hint={`Over the last ${periodLabel[period]}`}
            />
            <StatCard
              label="Success Rate"
              icon={CheckCircle2}
              tone={usage.summary.successRate >= 95 ? 'green' : 'rose'}
              value={formatRate(usage.summary.successRate)}
              hint={successRateLabel(usage.summary.successRate)}
            />
            <StatCard
              label="Avg Response Time"
              icon={Timer}
              tone="amber"
              value={formatMs(usage.summary.avgResponseTime)}
              hint="Across every endpoint"
            />
            <StatCard
              label="Active API Keys"
              icon={KeyRound}
              tone="violet"
              value={`${formatNumber(usage.summary.activeApiKeys)} / ${formatNumber(usage.summary.totalApiKeys)}`}
              hint={`${formatNumber(usage.summary.totalApiKeys - usage.summary.activeApiKeys)} inactive`}
            />
          </>
        )}
      </div>

      {isAdmin && (
        <SystemOverview
          overview={overviewQuery.data}
          health={systemQuery.data?.health}
          uptimeSeconds={systemQuery.data?.uptimeSeconds}
          loading={overviewQuery.isPending || systemQuery.isPending}
        />
      )}

      {usage && (
        <>
          <div className="grid gap-6 lg:grid-cols-2">
            <SectionCard title="Requests over time" description="Calls per day (UTC)">
              <UsageAreaChart data={usage.usage.byDay} />
            </SectionCard>
            <SectionCard
              title="Requests vs errors"
              description="Failed calls are those answered with a status of 400 or more"
            >
              <RequestsErrorsChart data={usage.usage.byDay} />
            </SectionCard>
          </div>

          <CategoryUsage usage={usage} />

          <div className="grid gap-6 lg:grid-cols-3">
            <TopEndpoints usage={usage} />
            <TopKeys usage={usage} />
          </div>

          <div className="grid gap-6 lg:grid-cols-3">
            <SectionCard title="Recommendations" className="lg:col-span-2">
              <RecommendationsList items={usage.recommendations} />
            </SectionCard>
            <SystemInsights usage={usage} unreadNotifications={unreadNotifications} />
          </div>

          <KeyActivityTable usage={usage} />
        </>
      )}
      {!usage && !usageQuery.isError && (
        <div className="grid place-items-center rounded-2xl border border-slate-200 bg-white py-24" role="status">
          <span className="flex items-center gap-2 text-sm text-slate-500">
            <Clock className="h-4 w-4 animate-pulse" aria-hidden="true" /> Loading analytics…
          </span>
        </div>
      )}
    </div>
  );
}
