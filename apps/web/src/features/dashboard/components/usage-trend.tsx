import { Link } from 'react-router';
import { BarChart3 } from 'lucide-react';
import { paths } from '@/config/paths';
import { SectionCard } from '@/components/ui/section-card';
import { UsageAreaChart } from '@/components/usage/usage-charts';
import type { DayPoint } from '@/components/usage/usage-charts';
import { useTranslation } from 'react-i18next';

/** Requests per day over the last 30 days, with a link to the analytics. */
export function UsageTrend({ isAdmin, series }: { isAdmin: boolean; series?: DayPoint[] }) {
  const { t } = useTranslation();
  return (
    <SectionCard
      title={t('usageTrend.usageOverTheLast30')}
      description={isAdmin ? t('usageTrend.requestsPerDayAcrossThe') : t('usageTrend.yourRequestsPerDayUtc')}
      className="lg:col-span-2"
      action={
        <Link
          to={paths.app.analytics.getHref()}
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
        >
          <BarChart3 className="h-4 w-4" aria-hidden="true" /> {t('usageTrend.details')}
        </Link>
      }
    >
      {series ? (
        <UsageAreaChart data={series} className="h-56 sm:h-64" />
      ) : (
        <div className="h-56 animate-pulse rounded-xl bg-slate-100 sm:h-64" aria-hidden="true" />
      )}
    </SectionCard>
  );
}
