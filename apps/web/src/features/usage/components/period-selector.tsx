import { usagePeriods, type TUsagePeriod } from '@docflow/contracts';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

export const periodLabel: Record<TUsagePeriod, TKey> = {
  last_7_days: 'period.last_7_days',
  last_30_days: 'period.last_30_days',
  last_90_days: 'period.last_90_days',
};

/** The period buttons of spec-2 §2: 7, 30, 90 days. */
export function PeriodSelector({
  value,
  onChange,
  disabled,
}: {
  value: TUsagePeriod;
  onChange: (p: TUsagePeriod) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('periodSelector.period')} className="inline-flex rounded-xl bg-slate-100 p-1">
      {usagePeriods.map((p) => (
        <button
          key={p}
          type="button"
          aria-pressed={value === p}
          disabled={disabled}
          onClick={() => onChange(p)}
          className={cn(
            'rounded-lg px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
            value === p ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
          )}
        >
          {t(periodLabel[p])}
        </button>
      ))}
    </div>
  );
}
