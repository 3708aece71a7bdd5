import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { TBillingInterval, TPlan } from '@docflow/contracts';
import { useAuthStore, useUser } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';
import { isHolding, useBilling } from '../api/get-billing';
import { useOpenCheckout, useOpenPortal } from '../api/open-billing-page';
import { BillingCard } from '../components/billing-card';

export interface StripePlans {
  /**
   * The plans page's Upgrade when payments go through Stripe: Checkout for a priced plan, the portal when a
   * subscription already exists (plan changes happen there). Answers false when it does not handle the plan (no
   * Stripe, or a plan without a price): the page's own Upgrade applies then.
   */
  onUpgrade?: (plan: TPlan) => boolean;
  /** The billing card, shown on the plans page when payments go through Stripe. */
  card: ReactNode;
}

/** Stripe on the plans page: its Upgrade and its billing card, and the return from Checkout. */
export function useStripePlans(): StripePlans {
  const [params, setParams] = useSearchParams();
  const returned = params.get('checkout');
  // Set on arrival from Checkout, and kept: the polling itself stops once the subscription shows.
  const [awaiting] = useState(returned === 'success');
  const activated = useRef(false);
  const billing = useBilling({ awaitingPayment: awaiting });
  const checkout = useOpenCheckout();
  const portal = useOpenPortal();
  const qc = useQueryClient();
  const [interval, setInterval] = useState<TBillingInterval>('monthly');
  const told = useRef(false);
  const user = useUser();

  // Back from Checkout: say so once, and drop the parameter so a reload does not say it again.
  useEffect(() => {
    if (!returned || told.current) return;
    told.current = true;
    if (returned === 'success') toast.success(tr('billing.toast.paid'));
    else toast.info(tr('billing.toast.cancelled'));
    const next = new URLSearchParams(params);
    next.delete('checkout');
    setParams(next, { replace: true });
  }, [returned, params, setParams]);

  // The webhook has landed: the plan badges and figures follow the user's new plans.
  const sub = billing.data?.subscription;
  useEffect(() => {
    if (!awaiting || activated.current || !sub || !isHolding(sub.status)) return;
    activated.current = true;
    toast.success(tr('billing.toast.active', { plan: sub.planDisplayName }));
    void (async () => {
      await useAuthStore.getState().fetchMe();
      await Promise.all(
        ['subscriptions', 'usage', 'dashboard', 'notifications'].map((k) => qc.invalidateQueries({ queryKey: [k] })),
      );
    })();
  }, [awaiting, sub, qc]);

  const state = billing.data;
  if (state?.provider !== 'stripe') return { card: null };
  const onUpgrade = (plan: TPlan): boolean => {
    if (isHolding(state.subscription?.status)) {
      // A plan change of a paid subscription is made in the portal: open it on the change itself.
      portal.mutate('subscription_update');
      return true;
    }
    if (!state.plans.some((p) => p.planName === plan.name)) return false;
    subscribe(plan.name);
    return true;
  };
  // A running trial converts to paid without losing its days (the server sets the subscription's trial end).
  const trials = (user?.plans ?? []).filter(
    (p) => p.status === 'trial' && p.isActive && state.plans.some((s) => s.planName === p.planName),
  );
  const subscribe = (planName: string) => {
    const priced = state.plans.find((p) => p.planName === planName);
    checkout.mutate({ planName, interval: priced?.intervals.includes(interval) ? interval : 'monthly' });
  };
  return {
    onUpgrade,
    card: (
      <BillingCard
        state={state}
        interval={interval}
        onIntervalChange={setInterval}
        trials={trials}
        onSubscribe={subscribe}
      />
    ),
  };
}
