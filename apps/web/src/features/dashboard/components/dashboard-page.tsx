import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Activity,
  ArrowRight,
  BarChart3,
  BookOpen,
  CheckCircle2,
  Crown,
  ExternalLink,
  KeyRound,
  Timer,
  TrendingUp,
  Users,
} from 'lucide-react';
import { isAdminRole, type TUsageAnalytics } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { DataTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { useUser } from '@/features/auth/stores/auth-store';
import { useApiKeys } from '@/features/api-keys/api/get-api-keys';
import { usePlans } from '@/lib/plans/get-plans';
import { resolvePlanOwnership } from '@/lib/plans/plan-ownership';
import { useAdminOverview } from '@/lib/usage/get-admin-overview';
import { useUsage } from '@/lib/usage/get-usage';
import { RecommendationsList } from '@/components/usage/recommendations-list';
import { SectionCard } from '@/components/ui/section-card';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { UsageAreaChart } from '@/components/usage/usage-charts';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { useDashboard } from '../api/get-dashboard';
import { isUnlimited, requestsOverLimit } from '../utils/plan-details';

function UtilizationBar({ percent, label }: { percent: number; label: string }) {
  const tone = percent < 70 ? 'bg-emerald-500' : percent < 90 ? 'bg-amber-400' : 'bg-rose-500';
  const width = Math.min(100, Math.max(0, percent));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      className="h-2 overflow-hidden rounded-full bg-slate-100"
    >
      <div className={cn('h-full rounded-full', tone)} style={{ width: `${width}%` }} />
    </div>
  );
}

/**
 * Spec-2 §2 "Plan details" (non-admins): with several plans, one row per key (name, plan, usage, utilization, total
 * usage); with one, the plan name, the monthly utilization and the requests over the monthly limit or 'Unlimited'.
 */
export function PlanDetails({ usage }: { usage: TUsageAnalytics }) {
  const { limits } = usage;
  if (limits.hasMultiplePlans) {
    return (
      <SectionCard
        title="Plan details"
        description={`${limits.plans.length} plans in use across your keys`}
        bodyClassName="p-0"
      >
        <DataTable
          minWidth={520}
          columns={[
            { label: 'Key' },
            { label: 'Plan' },
            { label: 'Usage', align: 'right' },
            { label: 'Utilization' },
            { label: 'Total usage', align: 'right' },
          ]}
        >
          {limits.planBreakdown.map((row) => (
            <tr key={row.keyId}>
              <th scope="row" className="px-5 py-3 text-left font-medium text-slate-900">
                {row.keyName || 'Unnamed Key'}
              </th>
              <td className="px-5 py-3">
                <Badge tone="indigo">{row.planName}</Badge>
              </td>
              <td className="px-5 py-3 text-right tabular-nums">{formatNumber(row.usage)}</td>
              <td className="px-5 py-3">
                <div className="flex items-center gap-2">
                  <div className="w-20">
                    <UtilizationBar percent={row.utilization} label={`${row.keyName || 'Unnamed Key'} utilization`} />
                  </div>
                  <span className="tabular-nums text-slate-600">{formatRate(row.utilization)}</span>
                </div>
              </td>
              <td className="px-5 py-3 text-right tabular-nums">{formatNumber(row.totalUsage)}</td>
            </tr>
          ))}
        </DataTable>
      </SectionCard>
    );
  }
  const monthly = limits.utilizationRate.monthly;
  const unlimited = isUnlimited(limits.maxRequestsPerMonth);
  return (
    <SectionCard
      title="Plan details"
      action={
        <Link to={paths.app.plans.getHref()} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
          Change plan
        </Link>
      }
    >
      <dl className="space-y-4">
        <div className="flex items-center justify-between gap-2">
          <dt className="text-sm text-slate-500">Plan</dt>
          <dd>
            <Badge tone="indigo">{limits.planDisplayName}</Badge>
          </dd>
        </div>
        <div className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <dt className="text-sm text-slate-500">Monthly utilization</dt>
            <dd className="text-sm font-semibold tabular-nums text-slate-900">
              {unlimited ? '—' : formatRate(monthly)}
            </dd>
          </div>
          {!unlimited && <UtilizationBar percent={monthly} label="Monthly utilization" />}
        </div>
        <div className="flex items-center justify-between gap-2">
          <dt className="text-sm text-slate-500">Requests this month</dt>
          <dd className="text-sm font-medium tabular-nums text-slate-900">
            {requestsOverLimit(limits.currentMonthUsage, limits.maxRequestsPerMonth)}
          </dd>
        </div>
      </dl>
    </SectionCard>
  );
}

function QuickAction({
  to,
  icon: Icon,
  title,
  text,
  external,
}: {
  to: string;
  icon: typeof KeyRound;
  title: string;
  text: string;
  external?: boolean;
}) {
  const body: ReactNode = (
    <>
      <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-indigo-50 text-indigo-600 transition-colors group-hover:bg-indigo-600 group-hover:text-white">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-medium text-slate-900">{title}</span>
        <span className="block text-xs text-slate-500">{text}</span>
      </span>
      {external ? (
        <ExternalLink className="h-4 w-4 text-slate-400" aria-hidden="true" />
      ) : (
        <ArrowRight
          className="h-4 w-4 text-slate-400 transition-transform group-hover:translate-x-0.5"
          aria-hidden="true"
        />
      )}
    </>
  );
  const cls =
    'group flex items-center gap-3 rounded-xl border border-slate-100 p-3 transition-colors hover:border-indigo-200 hover:bg-indigo-50/40 focus-visible:outline-2 focus-visible:outline-indigo-600';
  return external ? (
    <a href={to} target="_blank" rel="noreferrer" className={cls}>
      {body}
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  ) : (
    <Link to={to} className={cls}>
      {body}
    </Link>
  );
}

export function DashboardPage() {
  const user = useUser();
  const isAdmin = isAdminRole(user?.role);
  const dashboardQuery = useDashboard();
  const usageQuery = useUsage('last_30_days', { enabled: !isAdmin });
  const overviewQuery = useAdminOverview({ enabled: isAdmin });
  const keysQuery = useApiKeys();
  const plansQuery = usePlans({ refetchOnMount: false });

  const ownership = useMemo(
    () => resolvePlanOwnership({ user, plans: plansQuery.data, apiKeys: keysQuery.data }),
    [user, plansQuery.data, keysQuery.data],
  );
  const dash = dashboardQuery.data;
  const overview = overviewQuery.data;
  const firstName = user?.name?.split(' ')[0] ?? '';
  const series = isAdmin ? overview?.series : dash?.series;
  const statsQuery = isAdmin ? overviewQuery : dashboardQuery;

  return (
    <div className="space-y-6">
      <title>Dashboard · DocFlow</title>
      <section
        aria-label="Welcome"
        className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-600 p-6 text-white shadow-sm sm:p-8"
      >
        <div
          className="pointer-events-none absolute -right-16 -top-20 h-64 w-64 rounded-full bg-white/10 blur-2xl"
          aria-hidden="true"
        />
        <div className="relative flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
          <div>
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone="dark" data-testid="dashboard-plan-badge">
                <Crown className="h-3 w-3" aria-hidden="true" />
                {ownership.label}
              </Badge>
              <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-400/15 px-2.5 py-0.5 text-xs font-medium text-emerald-50 ring-1 ring-inset ring-emerald-300/30">
                <span className="h-1.5 w-1.5 rounded-full bg-emerald-300" aria-hidden="true" />
                All systems operational
              </span>
            </div>
            <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
              Welcome back{firstName ? `, ${firstName}` : ''}!
            </h1>
            <p className="mt-1 text-sm text-indigo-100">
              {isAdmin
                ? 'Here is how the whole platform is doing.'
                : 'Here is what is happening with your document API.'}
            </p>
          </div>
          {!isAdmin && (
            <dl className="flex gap-8 text-sm">
              <div>
                <dt className="text-indigo-200">Requests this month</dt>
                <dd className="text-2xl font-bold tabular-nums">{dash ? formatNumber(dash.requestsThisMonth) : '—'}</dd>
              </div>
              <div>
                <dt className="text-indigo-200">API keys</dt>
                <dd className="text-2xl font-bold tabular-nums">
                  {dash ? formatNumber(dash.totalApiKeys) : keysQuery.data ? formatNumber(keysQuery.data.length) : '—'}
                </dd>
              </div>
            </dl>
          )}
        </div>
      </section>

      {statsQuery.isError && (
        <Alert title="Impossible de charger les statistiques du tableau de bord">
          <Button variant="link" size="sm" onClick={() => void statsQuery.refetch()}>
            Try again
          </Button>
        </Alert>
      )}

      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {isAdmin ? (
          overview ? (
            <>
              <StatCard
                label="Total Users"
                icon={Users}
                value={formatNumber(overview.users.total)}
                hint={`${formatNumber(overview.users.active)} active · ${formatNumber(overview.users.newToday)} new today`}
              />
              <StatCard
                label="API Keys"
                icon={KeyRound}
                tone="violet"
                value={formatNumber(overview.apiKeys.total)}
                hint={`${formatNumber(overview.apiKeys.active)} active · ${formatNumber(overview.apiKeys.newToday)} new today`}
              />
              <StatCard
                label="Requests Today"
                icon={Activity}
                tone="sky"
                value={formatNumber(overview.requests.today)}
                hint={`${formatNumber(overview.requests.thisMonth)} this month`}
              />
              <StatCard
                label="Avg Response Time"
                icon={Timer}
                tone="amber"
                value={formatMs(overview.avgResponseTime)}
                hint={`${formatRate(overview.successRate)} success · ${formatRate(overview.errorRate)} errors`}
              />
            </>
          ) : (
            Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
          )
        ) : dash ? (
          <>
            <StatCard
              label="Requests Today"
              icon={Activity}
              value={formatNumber(dash.requestsToday)}
              hint={`${formatNumber(dash.requestsThisMonth)} this month`}
            />
            <StatCard
              label="Monthly Usage"
              icon={TrendingUp}
              tone="sky"
              value={isUnlimited(dash.maxRequestsPerMonth) ? 'Unlimited' : formatRate(dash.utilization)}
              hint={`${dash.planDisplayName}: ${requestsOverLimit(dash.requestsThisMonth, dash.maxRequestsPerMonth)}`}
            />
            <StatCard
              label="Active API Keys"
              icon={KeyRound}
              tone="violet"
              value={`${formatNumber(dash.activeApiKeys)} / ${formatNumber(dash.totalApiKeys)}`}
              hint="Active / total"
            />
            <StatCard
              label="Success Rate"
              icon={CheckCircle2}
              tone={dash.successRate >= 95 ? 'green' : 'rose'}
              value={formatRate(dash.successRate)}
              hint={`${formatMs(dash.avgResponseTime)} average response`}
            />
          </>
        ) : (
          Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <SectionCard
          title="Usage over the last 30 days"
          description={isAdmin ? 'Requests per day across the platform' : 'Your requests per day (UTC)'}
          className="lg:col-span-2"
          action={
            <Link
              to={paths.app.analytics.getHref()}
              className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
            >
              <BarChart3 className="h-4 w-4" aria-hidden="true" /> Details
            </Link>
          }
        >
          {series ? (
            <UsageAreaChart data={series} className="h-56 sm:h-64" />
          ) : (
            <div className="h-56 animate-pulse rounded-xl bg-slate-100 sm:h-64" aria-hidden="true" />
          )}
        </SectionCard>

        <SectionCard title="Quick actions">
          <div className="space-y-2">
            <QuickAction
              to={paths.app.keys.getHref()}
              icon={KeyRound}
              title="Manage API Keys"
              text="Create, rotate and disable keys"
            />
            <QuickAction
              to={paths.app.analytics.getHref()}
              icon={BarChart3}
              title="View Analytics"
              text="Requests, errors and endpoints"
            />
            <QuickAction
              to={paths.apiDocs.getHref()}
              icon={BookOpen}
              title="API Documentation"
              text="Every endpoint with examples"
              external
            />
          </div>
        </SectionCard>
      </div>

      <div className={cn('grid gap-6', !isAdmin && 'lg:grid-cols-2')}>
        {!isAdmin &&
          (usageQuery.data ? (
            <PlanDetails usage={usageQuery.data} />
          ) : (
            <SectionCard title="Plan details">
              <div className="h-28 animate-pulse rounded-xl bg-slate-100" aria-hidden="true" />
            </SectionCard>
          ))}
        <SectionCard
          title="Recommendations"
          action={
            <Link
              to={paths.app.analytics.getHref()}
              className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
            >
              View all <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          }
        >
          {dash ? (
            <RecommendationsList items={dash.recommendations} limit={2} />
          ) : (
            <div className="space-y-3" aria-hidden="true">
              <div className="h-16 animate-pulse rounded-xl bg-slate-100" />
              <div className="h-16 animate-pulse rounded-xl bg-slate-100" />
            </div>
          )}
        </SectionCard>
      </div>
    </div>
  );
}
