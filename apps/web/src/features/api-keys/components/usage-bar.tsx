import { cn } from '@/utils/cn';
import { formatCount, formatPercent, usageBarClass, usageLevel, usagePercent } from '../utils/key-display';
import { useTranslation } from 'react-i18next';

/** Requests this month against the monthly limit: green under 70 %, yellow under 90 %, red otherwise. */
export function UsageBar({ used, limit, label: givenLabel }: { used: number; limit: number; label?: string }) {
  const { t } = useTranslation();
  const label = givenLabel ?? t('usageBar.requestsThisMonth');
  const percent = usagePercent(used, limit);
  const level = usageLevel(percent);
  const width = Math.min(100, percent);
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="text-slate-500">{label}</span>
        <span className="font-medium tabular-nums text-slate-900">
          {formatCount(used)} <span className="font-normal text-slate-400">/ {formatCount(limit)}</span>
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(width)}
        aria-valuetext={`${formatPercent(percent)} ${t('usageBar.ofMonthlyLimit')}`}
        data-level={level}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-500', usageBarClass[level])}
          style={{ width: `${width}%` }}
        />
      </div>
      <p className="text-xs text-slate-500">
        {formatPercent(percent)} {t('usageBar.ofMonthlyLimit')}
      </p>
    </div>
  );
}
