import type { TPlan } from '@docflow/contracts';
import { visiblePlans } from './format-plan';

/**
 * The plans the public pages quote (landing, sign-up side panel, Support): picked from GET /plans, the plans the
 * limits enforce, so an administrator's change shows everywhere at once.
 */

/** The plan a new account starts on: the free one (price 0), else the cheapest offered. */
export function startingPlanOf<T extends Pick<TPlan, 'price' | 'isPublic' | 'isActive' | 'sortOrder'>>(
  plans: readonly T[],
): T | undefined {
  const offered = visiblePlans(plans);
  return offered.find((p) => p.price === 0) ?? [...offered].sort((a, b) => a.price - b.price)[0];
}

/** The paid plan a trial is offered on: the recommended one, else the first paid plan. */
export function trialPlanOf<T extends Pick<TPlan, 'price' | 'isPublic' | 'isActive' | 'sortOrder' | 'isRecommended'>>(
  plans: readonly T[],
): T | undefined {
  const paid = visiblePlans(plans).filter((p) => p.price > 0);
  return paid.find((p) => p.isRecommended) ?? paid[0];
}
