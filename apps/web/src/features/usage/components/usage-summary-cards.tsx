import { BarChart3, CheckCircle2, KeyRound, Timer } from 'lucide-react';
import type { TUsageAnalytics, TUsagePeriod } from '@docflow/contracts';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { successRateLabel } from '../utils/success-rate';
import { periodLabel } from './period-selector';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';

/** The four headline figures of the period (skeletons while loading). */
export function UsageSummaryCards({ usage, period }: { usage?: TUsageAnalytics; period: TUsagePeriod }) {
  return !usage ? (
    <>
      {Array.from({ length: 4 }, (_, i) => (
        <StatCardSkeleton key={i} />
      ))}
    </>
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
  );
}
