import { Bell, CalendarDays, Gauge } from 'lucide-react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { cn } from '@/utils/cn';
import { formatDate, formatNumber, formatRate } from '@/utils/format';
import { SectionCard } from '@/components/ui/section-card';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { useTranslation } from 'react-i18next';

/** Plan usage, unread notifications and account age. */
export function SystemInsights({
  usage,
  unreadNotifications,
}: {
  usage: TUsageAnalytics;
  unreadNotifications?: number;
}) {
  const { t } = useTranslation();
  const monthly = usage.limits.utilizationRate.monthly;
  const items = [
    {
      icon: Gauge,
      label: t('systemInsights.planUsage'),
      value: t('systemInsights.ofPlan', { rate: formatRate(monthly), plan: usage.limits.planDisplayName }),
      detail: t('systemInsights.countedOfLimit', {
        counted: formatNumber(usage.limits.monthCalls.counted),
        limit: formatNumber(usage.limits.maxRequestsPerMonth),
      }),
      calls: usage.limits.monthCalls,
      warn: monthly > 80,
    },
    {
      icon: Bell,
      label: t('systemInsights.unreadNotifications'),
      value: unreadNotifications === undefined ? '—' : formatNumber(unreadNotifications),
      detail: unreadNotifications ? t('systemInsights.openTheBell') : t('systemInsights.allCaughtUp'),
      warn: false,
    },
    {
      icon: CalendarDays,
      label: t('systemInsights.memberSince'),
      value: formatDate(usage.summary.memberSince, { year: 'numeric', month: 'long', day: 'numeric' }),
      detail: t('systemInsights.keysCreated', { count: formatNumber(usage.summary.totalApiKeys) }),
      warn: false,
    },
  ];
  return (
    <SectionCard title={t('systemInsights.systemInsights')}>
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
              {'calls' in it && it.calls && (
                <MonthCallsLine calls={it.calls} testId="analytics-calls" className="text-slate-500" />
              )}
            </div>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
