import { useMemo } from 'react';
import { isAdminRole, type TApiKey } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/utils/cn';
import { useUser } from '@/lib/auth/auth-store';
import { usePlans } from '@/lib/plans/get-plans';
import { resolvePlanOwnership } from '@/lib/plans/plan-ownership';
import { useAdminOverview } from '@/lib/usage/get-admin-overview';
import { useUsage } from '@/lib/usage/get-usage';
import { SectionCard } from '@/components/ui/section-card';
import { useDashboard } from '../api/get-dashboard';
import { DashboardRecommendations } from './dashboard-recommendations';
import { DashboardStats } from './dashboard-stats';
import { PlanDetails } from './plan-details';
import { QuickActions } from './quick-actions';
import { UsageTrend } from './usage-trend';
import { WelcomeBanner } from './welcome-banner';
import { useTranslation } from 'react-i18next';

export interface DashboardPageProps {
  /** The user's API keys, composed in by the route (the plan badge and the key count read them). */
  apiKeys?: TApiKey[];
}

export function DashboardPage({ apiKeys }: DashboardPageProps) {
  const { t } = useTranslation();
  const user = useUser();
  const isAdmin = isAdminRole(user?.role);
  const dashboardQuery = useDashboard();
  const usageQuery = useUsage('last_30_days', { enabled: !isAdmin });
  const overviewQuery = useAdminOverview({ enabled: isAdmin });
  const plansQuery = usePlans({ refetchOnMount: false });

  const ownership = useMemo(
    () => resolvePlanOwnership({ user, plans: plansQuery.data, apiKeys }),
    [user, plansQuery.data, apiKeys],
  );
  const dash = dashboardQuery.data;
  const overview = overviewQuery.data;
  const firstName = user?.name?.split(' ')[0] ?? '';
  const series = isAdmin ? overview?.series : dash?.series;
  const statsQuery = isAdmin ? overviewQuery : dashboardQuery;

  return (
    <div className="space-y-6">
      <title>{t('dashboardPage.dashboardDocflow')}</title>
      <WelcomeBanner
        firstName={firstName}
        isAdmin={isAdmin}
        planLabel={ownership.label}
        monthCalls={dash?.monthCalls}
        apiKeyCount={dash?.totalApiKeys ?? apiKeys?.length}
      />

      {statsQuery.isError && (
        <Alert title={t('dashboardPage.impossibleDeChargerLesStatistiques')}>
          <Button variant="link" size="sm" onClick={() => void statsQuery.refetch()}>
            {t('dashboardPage.tryAgain')}
          </Button>
        </Alert>
      )}

      <DashboardStats isAdmin={isAdmin} overview={overview} dash={dash} />

      <div className="grid gap-6 lg:grid-cols-3">
        <UsageTrend isAdmin={isAdmin} series={series} />
        <QuickActions />
      </div>

      <div className={cn('grid gap-6', !isAdmin && 'lg:grid-cols-2')}>
        {!isAdmin &&
          (usageQuery.data ? (
            <PlanDetails usage={usageQuery.data} />
          ) : (
            <SectionCard title={t('dashboardPage.planDetails')}>
              <div className="h-28 animate-pulse rounded-xl bg-slate-100" aria-hidden="true" />
            </SectionCard>
          ))}
        <DashboardRecommendations items={dash?.recommendations} />
      </div>
    </div>
  );
}
