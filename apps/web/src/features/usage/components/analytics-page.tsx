import { useState } from 'react';
import { Clock } from 'lucide-react';
import { isAdminRole, type TUsagePeriod } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useUser } from '@/lib/auth/auth-store';
import { useAdminOverview } from '@/lib/usage/get-admin-overview';
import { useSystemStatus } from '../api/get-system-status';
import { useUsage } from '@/lib/usage/get-usage';
import { PeriodSelector } from './period-selector';
import { RecommendationsList } from '@/components/usage/recommendations-list';
import { SectionCard } from '@/components/ui/section-card';
import { RequestsErrorsChart, UsageAreaChart } from '@/components/usage/usage-charts';
import { CategoryUsage } from './category-usage';
import { KeyActivityTable } from './key-activity-table';
import { SystemInsights } from './system-insights';
import { SystemOverview } from './system-overview';
import { TopEndpoints } from './top-endpoints';
import { TopKeys } from './top-keys';
import { UsageSummaryCards } from './usage-summary-cards';
import { useTranslation } from 'react-i18next';

export interface AnalyticsPageProps {
  /** Unread notifications, composed in by the route (system insights). */
  unreadNotifications?: number;
}

export function AnalyticsPage({ unreadNotifications }: AnalyticsPageProps) {
  const { t } = useTranslation();
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
        title={t('analyticsPage.analytics')}
        description={t('analyticsPage.description', { period: t(`periodSpan.${period}`) })}
        actions={<PeriodSelector value={period} onChange={setPeriod} />}
      />

      {errorText && (
        <Alert title={t('analyticsPage.impossibleDeChargerLesStatistiques')}>
          <p>{errorText}</p>
          <Button variant="link" size="sm" onClick={() => void usageQuery.refetch()}>
            {t('analyticsPage.tryAgain')}
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
        <UsageSummaryCards usage={usage} period={period} />
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
            <SectionCard title={t('analyticsPage.requestsOverTime')} description={t('analyticsPage.callsPerDayUtc')}>
              <UsageAreaChart data={usage.usage.byDay} />
            </SectionCard>
            <SectionCard
              title={t('analyticsPage.requestsVsErrors')}
              description={t('analyticsPage.failedCallsAreThoseAnswered')}
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
            <SectionCard title={t('analyticsPage.recommendations')} className="lg:col-span-2">
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
            <Clock className="h-4 w-4 animate-pulse" aria-hidden="true" /> {t('analyticsPage.loadingAnalytics')}
          </span>
        </div>
      )}
    </div>
  );
}
