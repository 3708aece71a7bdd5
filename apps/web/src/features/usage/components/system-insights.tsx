import { Bell, CalendarDays, Gauge } from 'lucide-react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { cn } from '@/utils/cn';
import { formatDate, formatNumber, formatRate } from '@/utils/format';
import { SectionCard } from '@/components/ui/section-card';
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
      value: `${formatRate(monthly)} of ${usage.limits.planDisplayName}`,
      detail: `${formatNumber(usage.limits.currentMonthUsage)} of ${formatNumber(usage.limits.maxRequestsPerMonth)} requests this month`,
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
      detail: `${formatNumber(usage.summary.totalApiKeys)} API keys created`,
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
            </div>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
