import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { usePlans } from '@/lib/plans/get-plans';
import { visiblePlans } from '@/lib/plans/format-plan';
import { cn } from '@/utils/cn';
import { planOffer, type PlanOffer } from '../utils/plan-offer';
import { SectionHeading } from './sections';
import { useTranslation } from 'react-i18next';

/** The public plans, as GET /plans answers them: the same figures the limits enforce. */
function PlanOffers() {
  const { t } = useTranslation();
  const plans = usePlans();
  if (plans.isError) {
    return (
      <Alert tone="error" className="mx-auto mt-16 max-w-md">
        {t('pricing.thePlansCouldNotBe')}{' '}
        <Button variant="secondary" size="sm" onClick={() => void plans.refetch()}>
          {t('pricing.retry')}
        </Button>
      </Alert>
    );
  }
  if (!plans.data) {
    return (
      <div className="mx-auto mt-16 grid max-w-md gap-6 lg:max-w-none lg:grid-cols-3" aria-busy="true">
        <span className="sr-only">{t('pricing.loadingThePlans')}</span>
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-96 animate-pulse rounded-3xl bg-white ring-1 ring-slate-200" />
        ))}
      </div>
    );
  }
  return (
    <div className="mx-auto mt-16 grid max-w-md gap-6 lg:max-w-none lg:grid-cols-3 lg:items-stretch">
      {visiblePlans(plans.data).map((plan) => (
        <PlanOfferCard key={plan.name} offer={planOffer(plan)} />
      ))}
    </div>
  );
}

function PlanOfferCard({ offer: p }: { offer: PlanOffer }) {
  const { t } = useTranslation();
  return (
    <article
      className={cn(
        'relative flex flex-col rounded-3xl p-8',
        p.popular
          ? 'bg-slate-950 text-white shadow-2xl shadow-indigo-900/30 ring-2 ring-indigo-500 lg:-my-4 lg:py-12'
          : 'bg-white shadow-sm ring-1 ring-slate-200',
      )}
      aria-label={t('pricing.planLabel', { name: p.name })}
    >
      {p.popular && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-gradient-to-r from-indigo-500 to-violet-500 px-3 py-1 text-xs font-semibold text-white shadow">
          {t('pricing.mostPopular')}
        </span>
      )}
      <h3 className={cn('text-lg font-semibold', p.popular ? 'text-white' : 'text-slate-900')}>{p.name}</h3>
      <p className={cn('mt-2 text-sm', p.popular ? 'text-slate-300' : 'text-slate-600')}>{p.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-5xl font-bold tracking-tight">{p.price}</span>
        <span className={cn('text-sm', p.popular ? 'text-slate-400' : 'text-slate-500')}>{p.period}</span>
      </p>
      <ul className="mt-8 flex-1 space-y-3">
        {p.features.map((f) => (
          <li key={f} className={cn('flex items-start gap-3 text-sm', p.popular ? 'text-slate-200' : 'text-slate-700')}>
            <Check
              className={cn('mt-0.5 h-4 w-4 shrink-0', p.popular ? 'text-indigo-300' : 'text-indigo-600')}
              aria-hidden="true"
            />
            {f}
          </li>
        ))}
      </ul>
      <Link
        to={p.cta.to}
        className={buttonVariants({
          variant: p.popular ? 'primary' : 'secondary',
          size: 'lg',
          className: cn('mt-8 w-full', p.popular && 'bg-indigo-500 hover:bg-indigo-400'),
        })}
      >
        {p.cta.label}
      </Link>
    </article>
  );
}

export function Pricing() {
  const { t } = useTranslation();
  return (
    <section id="pricing" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          eyebrow={t('pricing.pricing')}
          title={t('pricing.simpleTransparentPricing')}
          text={t('pricing.startFreeUpgradeWhenYour')}
        />
        <PlanOffers />
      </div>
    </section>
  );
}
