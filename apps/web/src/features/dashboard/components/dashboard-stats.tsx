import { Activity, CheckCircle2, KeyRound, Timer, TrendingUp, Users } from 'lucide-react';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { isUnlimited, requestsOverLimit } from '../utils/plan-details';
import type { AdminOverview } from '@/lib/usage/get-admin-overview';
import type { DashboardStats as DashboardStatsData } from '../api/get-dashboard';
import { useTranslation } from 'react-i18next';

/**
 * The four headline figures: the platform's for admins, the user's own otherwise (skeletons while loading). The
 * month's calls read the same on both (made · counted · not counted): the admin's are every user's summed.
 */
export function DashboardStats({
  isAdmin,
  overview,
  dash,
}: {
  isAdmin: boolean;
  overview?: AdminOverview;
  dash?: DashboardStatsData;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {isAdmin ? (
        overview ? (
          <>
            <StatCard
              label={t('dashboardStats.totalUsers')}
              icon={Users}
              value={formatNumber(overview.users.total)}
              hint={t('dashboardStats.activeNewToday', {
                active: formatNumber(overview.users.active),
                today: formatNumber(overview.users.newToday),
              })}
            />
            <StatCard
              label={t('dashboardStats.apiKeys')}
              icon={KeyRound}
              tone="violet"
              value={formatNumber(overview.apiKeys.total)}
              hint={t('dashboardStats.keysActiveNewToday', {
                active: formatNumber(overview.apiKeys.active),
                today: formatNumber(overview.apiKeys.newToday),
              })}
            />
            <StatCard
              label={t('dashboardStats.requestsToday')}
              icon={Activity}
              tone="sky"
              value={formatNumber(overview.requests.today)}
              hint={<MonthCallsLine calls={overview.monthCalls} testId="admin-month-calls" />}
            />
            <StatCard
              label={t('dashboardStats.avgResponseTime')}
              icon={Timer}
              tone="amber"
              value={formatMs(overview.avgResponseTime)}
              hint={t('dashboardStats.successErrors', {
                success: formatRate(overview.successRate),
                errors: formatRate(overview.errorRate),
              })}
            />
          </>
        ) : (
          Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
        )
      ) : dash ? (
        <>
          <StatCard
            label={t('dashboardStats.requestsToday')}
            icon={Activity}
            value={formatNumber(dash.requestsToday)}
            hint={t('dashboardStats.thisMonth', { count: formatNumber(dash.requestsThisMonth) })}
          />
          <StatCard
            label={t('dashboardStats.monthlyUsage')}
            icon={TrendingUp}
            tone="sky"
            value={isUnlimited(dash.maxRequestsPerMonth) ? 'Unlimited' : formatRate(dash.utilization)}
            hint={t('dashboardStats.countedOfLimit', {
              plan: dash.planDisplayName,
              figures: requestsOverLimit(dash.monthCalls.counted, dash.maxRequestsPerMonth),
            })}
          />
          <StatCard
            label={t('dashboardStats.activeApiKeys')}
            icon={KeyRound}
            tone="violet"
            value={`${formatNumber(dash.activeApiKeys)} / ${formatNumber(dash.totalApiKeys)}`}
            hint={t('dashboardStats.activeTotal')}
          />
          <StatCard
            label={t('dashboardStats.successRate')}
            icon={CheckCircle2}
            tone={dash.successRate >= 95 ? 'green' : 'rose'}
            value={formatRate(dash.successRate)}
            hint={t('dashboardStats.averageResponse', { time: formatMs(dash.avgResponseTime) })}
          />
        </>
      ) : (
        Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
      )}
    </div>
  );
}
