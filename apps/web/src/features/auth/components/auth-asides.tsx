import { CheckCircle2, Gift, Zap } from 'lucide-react';
import { TRIAL_DAYS } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';
import { usePlans } from '@/lib/plans/get-plans';
import { startingPlanOf, trialPlanOf } from '@/lib/plans/plan-figures';
import { formatNumber } from '@/utils/format';

/**
 * Register's side panel (spec-1 §2): what a new account gets, from the enforced plans (GET /plans): the starting
 * plan's monthly calls and the trial of the paid plan. A figure not loaded yet is left out rather than guessed.
 */
export function FreeTrialPanel() {
  const { t } = useTranslation();
  const plans = usePlans({ refetchOnMount: false }).data ?? [];
  const starting = startingPlanOf(plans);
  const trial = trialPlanOf(plans);
  const items = [
    ...(starting
      ? [
          t('authAsides.startingCalls', {
            count: formatNumber(starting.maxRequestsPerMonth),
            plan: starting.displayName,
          }),
        ]
      : []),
    ...(trial ? [t('authAsides.trialOf', { days: TRIAL_DAYS, plan: trial.displayName })] : []),
    t('authAsides.noCard'),
  ];
  return (
    <div className="text-white">
      <div className="inline-flex items-center gap-2 rounded-full bg-indigo-500/15 px-3 py-1 text-xs font-semibold text-indigo-200 ring-1 ring-inset ring-indigo-400/30">
        <Gift className="h-3.5 w-3.5" aria-hidden="true" /> {t('authAsides.freeTrial')}
      </div>
      <h2 className="mt-4 text-2xl font-bold tracking-tight">{t('authAsides.startBuildingInMinutes')}</h2>
      <p className="mt-2 text-sm text-slate-300">{t('authAsides.everythingYouNeedToConvert')}</p>
      <ul className="mt-6 space-y-3" aria-label={t('authAsides.freeTrial')}>
        {items.map((item) => (
          <li key={item} className="flex items-center gap-3 text-sm text-slate-100">
            <CheckCircle2 className="h-5 w-5 shrink-0 text-emerald-400" aria-hidden="true" />
            {item}
          </li>
        ))}
      </ul>
      <div className="mt-8 rounded-xl bg-white/5 p-4 ring-1 ring-inset ring-white/10">
        <p className="text-sm text-slate-300">{t('authAsides.weReplacedThreeConversionServices')}</p>
        <p className="mt-3 text-xs font-semibold text-slate-400">{t('authAsides.mayaChenCtoLedgerly')}</p>
      </div>
    </div>
  );
}

/** Login's side panel: a reminder of what the API does. */
export function SignInPanel() {
  const { t } = useTranslation();
  return (
    <div className="text-white">
      <div className="inline-flex items-center gap-2 rounded-full bg-indigo-500/15 px-3 py-1 text-xs font-semibold text-indigo-200 ring-1 ring-inset ring-indigo-400/30">
        <Zap className="h-3.5 w-3.5" aria-hidden="true" /> {t('authAsides.realEngines')}
      </div>
      <h2 className="mt-4 text-2xl font-bold tracking-tight">{t('authAsides.documentsInPdfsOut')}</h2>
      <p className="mt-2 text-sm text-slate-300">{t('authAsides.oneApiForConversionOcr')}</p>
      <pre className="mt-6 overflow-x-auto rounded-xl bg-black/40 p-4 font-mono text-xs leading-relaxed text-slate-200 ring-1 ring-inset ring-white/10">
        <code>
          <span className="text-emerald-400">curl</span> -X POST /api/v1/conversion/auto-to-pdf \{'\n'}
          {'  '}-H <span className="text-amber-300">&quot;x-api-key: $DOCFLOW_KEY&quot;</span> \{'\n'}
          {'  '}-F <span className="text-amber-300">&quot;file=@report.docx&quot;</span> -o report.pdf
        </code>
      </pre>
    </div>
  );
}
