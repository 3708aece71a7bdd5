import { TRIAL_DAYS } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';
import { usePlans } from '@/lib/plans/get-plans';
import { startingPlanOf, trialPlanOf } from '@/lib/plans/plan-figures';
import { formatNumber } from '@/utils/format';

/** The hero's small print: the starting plan's free calls and the trial, from the enforced plans (GET /plans). */
export function FreeOfferLine() {
  const { t } = useTranslation();
  const plans = usePlans({ refetchOnMount: false }).data ?? [];
  const starting = startingPlanOf(plans);
  const trial = trialPlanOf(plans);
  const parts = [
    ...(starting ? [t('hero.freeCalls', { count: formatNumber(starting.maxRequestsPerMonth) })] : []),
    ...(trial ? [t('hero.trialDays', { days: TRIAL_DAYS })] : []),
    t('hero.noCard'),
  ];
  return (
    <p className="mt-6 text-sm text-slate-400" data-testid="hero-offer">
      {parts.join(' · ')}
    </p>
  );
}
