import { ChevronDown } from 'lucide-react';
import { TRIAL_DAYS } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';
import { usePlans } from '@/lib/plans/get-plans';
import { visiblePlans } from '@/lib/plans/format-plan';
import { useServiceInfo } from '@/lib/service-info/get-service-info';
import { retentionLabel } from '@/lib/service-info/retention-label';
import { formatNumber } from '@/utils/format';

const faq = ['plans', 'formats', 'auth', 'storage', 'limit', 'cancel'] as const;

/**
 * The Support FAQ. Its figures are the server's: each plan's monthly requests from GET /plans (what the limits
 * enforce), the job-result retention from GET /service-info; until they load, the answers say where to look.
 */
export function SupportFaq() {
  const { t } = useTranslation();
  const plans = usePlans({ refetchOnMount: false });
  const service = useServiceInfo();
  const offered = plans.data ? visiblePlans(plans.data) : [];
  const answers: Record<(typeof faq)[number], string> = {
    plans: offered.length
      ? t('supportFaq.plans.a', {
          plans: offered
            .map((p) => t('supportFaq.plans.line', { name: p.displayName, count: formatNumber(p.maxRequestsPerMonth) }))
            .join(t('supportFaq.plans.separator')),
        })
      : t('supportFaq.plans.pending'),
    formats: t('supportFaq.formats.a'),
    auth: t('supportFaq.auth.a'),
    storage: service.data
      ? t('supportFaq.storage.a', { retention: retentionLabel(service.data.jobResultRetentionHours) })
      : t('supportFaq.storage.pending'),
    limit: t('supportFaq.limit.a'),
    cancel: t('supportFaq.cancel.a', { days: service.data?.trialDays ?? TRIAL_DAYS }),
  };
  return (
    <div
      className="mt-8 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
      data-testid="support-faq"
    >
      {faq.map((id) => (
        <details key={id} className="group px-6 py-1 [&_summary::-webkit-details-marker]:hidden">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 text-left text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
            {t(`supportFaq.${id}.q`)}
            <ChevronDown
              className="h-4 w-4 shrink-0 text-slate-400 transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <p className="pb-5 text-sm leading-6 text-slate-600" data-testid={`faq-answer-${id}`}>
            {answers[id]}
          </p>
        </details>
      ))}
    </div>
  );
}
