import { useId } from 'react';
import { CalendarClock, Check, Crown, FileText, Gauge, HardDrive, KeyRound, Sparkles, Timer, Zap } from 'lucide-react';
import type { TPlan } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/utils/cn';
import { endpointGroupLabel, formatBytes, formatCount, formatPlanPrice } from '@/lib/plans/format-plan';
import { planBullets } from '@/lib/plans/limit-bullets';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

export type PlanCardStatus = 'none' | 'active' | 'primary';

export interface PlanCardProps {
  plan: TPlan;
  /** 'active': the user owns it; 'primary': owns it and it is the main one of several. */
  status: PlanCardStatus;
  /** Days left of a running trial of this plan. */
  trialDaysLeft?: number | null;
  onChoose: (plan: TPlan) => void;
  isPending?: boolean;
  disabled?: boolean;
}

/** The button text of spec-1 §2: 'Active Plan' when owned, 'Get Started' when free, else 'Upgrade Now'. */
function planActionLabel(plan: Pick<TPlan, 'price'>, owned: boolean): TKey {
  if (owned) return 'planCard.action.active';
  return plan.price === 0 ? 'planCard.action.free' : 'planCard.action.paid';
}

function Limit({ icon: Icon, label, value }: { icon: typeof Gauge; label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-3 py-1.5 text-sm">
      <dt className="flex items-center gap-2 text-slate-500">
        <Icon className="h-4 w-4 text-slate-400" aria-hidden="true" />
        {label}
      </dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}

export function PlanCard({ plan, status, trialDaysLeft, onChoose, isPending, disabled }: PlanCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const owned = status !== 'none';
  const price = formatPlanPrice(plan);
  // The limits' own bullets (they follow an edited limit), then the operator's other bullets.
  const bullets = planBullets(plan);
  const action = planActionLabel(plan, owned);

  return (
    <article
      aria-labelledby={titleId}
      data-plan={plan.name}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm transition-shadow hover:shadow-md',
        plan.isRecommended ? 'border-indigo-500 ring-2 ring-indigo-500/20' : 'border-slate-200',
        owned && 'bg-gradient-to-b from-emerald-50/60 to-white',
      )}
    >
      {plan.isRecommended && (
        <span className="absolute -top-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1 whitespace-nowrap rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white shadow-sm">
          <Sparkles className="h-3.5 w-3.5" aria-hidden="true" />
          {t('planCard.mostPopular')}
        </span>
      )}
      {owned && (
        <Badge
          tone={status === 'primary' ? 'indigo' : 'green'}
          className="absolute right-4 top-4"
          data-testid="plan-status-badge"
        >
          {status === 'primary' ? (
            <Crown className="h-3 w-3" aria-hidden="true" />
          ) : (
            <Check className="h-3 w-3" aria-hidden="true" />
          )}
          {status === 'primary' ? t('planCard.primaryPlan') : t('planCard.activePlan')}
        </Badge>
      )}

      <header>
        <h2 id={titleId} className={cn('text-lg font-semibold text-slate-900', owned && 'pr-28')}>
          {plan.displayName}
        </h2>
        <p className="mt-3 flex items-baseline gap-1">
          <span className="text-4xl font-bold tracking-tight text-slate-900">{price.amount}</span>
          <span className="text-sm font-medium text-slate-500">{price.period}</span>
        </p>
        <p className="mt-1 text-sm font-medium text-indigo-600">
          {formatCount(plan.maxRequestsPerMonth)} {t('planCard.requestsMonth')}
        </p>
      </header>
      {plan.description && <p className="mt-4 text-sm text-slate-600">{plan.description}</p>}
      {owned && trialDaysLeft != null && (
        <p className="mt-3 inline-flex w-fit items-center gap-1.5 rounded-md bg-amber-50 px-2 py-1 text-xs font-medium text-amber-800">
          <CalendarClock className="h-3.5 w-3.5" aria-hidden="true" />
          {t('planCard.freeTrial')} {trialDaysLeft} {trialDaysLeft === 1 ? 'day' : 'days'} {t('planCard.left')}
        </p>
      )}

      {bullets.length > 0 && (
        <ul
          className="mt-5 space-y-2 text-sm text-slate-700"
          aria-label={t('planCard.featuresOf', { name: plan.displayName })}
        >
          {bullets.map((f) => (
            <li key={f} className="flex gap-2">
              <Check className="mt-0.5 h-4 w-4 shrink-0 text-emerald-500" aria-hidden="true" />
              <span>{f}</span>
            </li>
          ))}
        </ul>
      )}

      <dl className="mt-5 divide-y divide-slate-100 border-y border-slate-100">
        <Limit icon={Zap} label={t('planCard.rateLimit')} value={`${formatCount(plan.maxRequestsPerMinute)} / min`} />
        <Limit
          icon={Timer}
          label={t('planCard.hourlyLimit')}
          value={`${formatCount(plan.maxRequestsPerHour)} / hour`}
        />
        <Limit icon={HardDrive} label={t('planCard.fileSize')} value={formatBytes(plan.maxFileSize)} />
        {plan.maxPagesPerPdf != null && (
          <Limit icon={FileText} label={t('planCard.pdfPages')} value={`${formatCount(plan.maxPagesPerPdf)} max`} />
        )}
        <Limit icon={KeyRound} label={t('planCard.apiKeys')} value={formatCount(plan.maxApiKeysPerUser)} />
        {plan.burstLimit != null && (
          <Limit icon={Gauge} label={t('planCard.burst')} value={`${formatCount(plan.burstLimit)} requests`} />
        )}
      </dl>

      <div className="mt-4 flex flex-wrap gap-1.5" aria-label={t('planCard.allowedEndpoints')}>
        {plan.allowedEndpoints.map((e) => (
          <Badge key={e} tone="slate">
            {endpointGroupLabel[e] ?? e}
          </Badge>
        ))}
        {plan.validityDays != null && (
          <Badge tone="amber">
            <CalendarClock className="h-3 w-3" aria-hidden="true" />
            {t('planCard.valid')} {plan.validityDays} {t('planCard.days')}
          </Badge>
        )}
      </div>

      <div className="mt-auto pt-6">
        <Button
          className="w-full"
          variant={owned ? 'secondary' : 'primary'}
          disabled={owned || disabled}
          isLoading={isPending}
          aria-describedby={titleId}
          onClick={() => onChoose(plan)}
        >
          {owned && <Check className="h-4 w-4" aria-hidden="true" />}
          {t(action)}
        </Button>
      </div>
    </article>
  );
}
