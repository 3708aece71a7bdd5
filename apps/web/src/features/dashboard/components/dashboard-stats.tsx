import { Activity, CheckCircle2, KeyRound, Timer, TrendingUp, Users } from 'lucide-react';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { isUnlimited, requestsOverLimit } from '../utils/plan-details';
import type { AdminOverview } from '@/lib/usage/get-admin-overview';
import type { DashboardStats as DashboardStatsData } from '../api/get-dashboard';

/** The four headline figures: the platform's for admins, the user's own otherwise (skeletons while loading). */
export function DashboardStats({
  isAdmin,
  overview,
  dash,
}: {
  isAdmin: boolean;
  overview?: AdminOverview;
  dash?: DashboardStatsData;
}) {
  return (
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
  );
}
