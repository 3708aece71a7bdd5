import type { TPlan } from '@docflow/contracts';
import { paths } from '@/config/paths';
import { billingPeriodLabel, formatPrice } from '@/lib/plans/format-plan';
import { planBullets } from '@/lib/plans/limit-bullets';
import { tr } from '@/i18n/localised';

/** A pricing card of the landing page: every figure and feature line read from the plan the limits enforce. */
export interface PlanOffer {
  name: string;
  description: string;
  price: string;
  period: string;
  features: string[];
  cta: { label: string; to: string };
  popular: boolean;
}

export function planOffer(plan: TPlan): PlanOffer {
  return {
    name: plan.displayName,
    description: plan.description,
    price: formatPrice(plan.price, plan.currency, 'en-US'),
    period: billingPeriodLabel[plan.billingPeriod] ?? plan.billingPeriod,
    features: planBullets(plan),
    cta:
      plan.price === 0
        ? { label: tr('planOffer.ctaFree'), to: paths.auth.register.getHref() }
        : plan.isRecommended
          ? { label: tr('planOffer.ctaTrial'), to: paths.auth.register.getHref() }
          : { label: tr('planOffer.ctaSales'), to: paths.support.getHref() },
    popular: plan.isRecommended,
  };
}
