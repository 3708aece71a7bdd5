import { BarChart3, CheckCircle2, KeyRound, Timer } from 'lucide-react';
import type { TUsageAnalytics, TUsagePeriod } from '@docflow/contracts';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { successRateKey, successRateLabel } from '../utils/success-rate';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { useTranslation } from 'react-i18next';

/** The four headline figures of the period (skeletons while loading). */
export function UsageSummaryCards({ usage, period }: { usage?: TUsageAnalytics; period: TUsagePeriod }) {
  const { t } = useTranslation();
  return !usage ? (
    <>
      {Array.from({ length: 4 }, (_, i) => (
        <StatCardSkeleton key={i} />
      ))}
    </>
  ) : (
    <>
      <StatCard
        label={t('usageSummaryCards.totalRequests')}
        icon={BarChart3}
        value={formatNumber(usage.summary.totalRequests)}
        hint={t('usageSummaryCards.overTheLastAll', { period: t(`periodSpan.${period}`) })}
      />
      <StatCard
        label={t('usageSummaryCards.successRate')}
        icon={CheckCircle2}
        tone={usage.summary.successRate >= 95 ? 'green' : 'rose'}
        value={formatRate(usage.summary.successRate)}
        hint={t(successRateKey[successRateLabel(usage.summary.successRate)])}
      />
      <StatCard
        label={t('usageSummaryCards.avgResponseTime')}
        icon={Timer}
        tone="amber"
        value={formatMs(usage.summary.avgResponseTime)}
        hint={t('usageSummaryCards.acrossEveryEndpoint')}
      />
      <StatCard
        label={t('usageSummaryCards.activeApiKeys')}
        icon={KeyRound}
        tone="violet"
        value={`${formatNumber(usage.summary.activeApiKeys)} / ${formatNumber(usage.summary.totalApiKeys)}`}
        hint={t('usageSummaryCards.inactive', {
          count: formatNumber(usage.summary.totalApiKeys - usage.summary.activeApiKeys),
        })}
      />
    </>
  );
}
