import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TBillingState } from '@docflow/contracts';
import { api } from '@/lib/api-client';

/** GET /billing: the payment provider, the user's Stripe subscription, the next invoice and past invoices. */
export const getBilling = async (): Promise<TBillingState> => {
  const res = await api.get<{ data: TBillingState }>('/billing', { silent: true });
  return res.data;
};

export const billingQueryKey = ['billing'] as const;

export const getBillingQueryOptions = () => queryOptions({ queryKey: billingQueryKey, queryFn: getBilling });

/**
 * `awaitingPayment`: back from Checkout, the webhook may land a moment after the browser: re-read every 1.5 s until
 * the subscription shows.
 */
export const useBilling = (opts: { awaitingPayment?: boolean } = {}) =>
  useQuery({
    ...getBillingQueryOptions(),
    refetchInterval: (q) => (opts.awaitingPayment && !isHolding(q.state.data?.subscription?.status) ? 1500 : false),
  });

/** Statuses in which a Stripe subscription holds its plan (a new Checkout is then refused: the portal changes it). */
export const isHolding = (status: string | undefined): boolean =>
  status === 'active' || status === 'trialing' || status === 'past_due' || status === 'unpaid';
