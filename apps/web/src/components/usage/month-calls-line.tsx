import type { TMonthCalls } from '@docflow/contracts';
import { formatNumber } from '@/utils/format';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

/**
 * This month's calls in the words every page uses (made · counted · not counted), with the reason refused calls are
 * not counted as its tooltip. `testId` prefixes each figure's test id, so a browser test can read them off any page.
 */
export function MonthCallsLine({
  calls,
  testId,
  className,
}: {
  calls: TMonthCalls;
  testId: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const parts = [
    { id: 'made', label: t('monthCalls.made'), value: calls.made },
    { id: 'counted', label: t('monthCalls.counted'), value: calls.counted },
    { id: 'not-counted', label: t('monthCalls.notCounted'), value: calls.notCounted },
  ];
  return (
    <p className={cn('text-xs', className)} title={t('monthCalls.why')} data-testid={testId}>
      {parts.map((p, i) => (
        <span key={p.id}>
          {i > 0 && ' · '}
          <span className="font-medium tabular-nums" data-testid={`${testId}-${p.id}`}>
            {formatNumber(p.value)}
          </span>{' '}
          {p.label}
        </span>
      ))}
    </p>
  );
}
