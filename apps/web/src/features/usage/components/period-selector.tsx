import { usagePeriods, type TUsagePeriod } from '@docflow/contracts';
import { cn } from '@/utils/cn';

export const periodLabel: Record<TUsagePeriod, string> = {
  last_7_days: '7 days',
  last_30_days: '30 days',
  last_90_days: '90 days',
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
  return (
    <div role="group" aria-label="Period" className="inline-flex rounded-xl bg-slate-100 p-1">
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
          {periodLabel[p]}
        </button>
      ))}
    </div>
  );
}
