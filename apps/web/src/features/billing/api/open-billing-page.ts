import { useMutation } from '@tanstack/react-query';
import type { TBillingCheckoutRequest, TBillingPortalFlow } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';

/** Where the browser goes for a Stripe page; replaced in tests. */
export const navigation = { go: (url: string) => window.location.assign(url) };

/** POST /billing/checkout: the Stripe Checkout page of a plan. */
export const openCheckout = async (req: TBillingCheckoutRequest): Promise<string> =>
  (await api.post<{ data: { url: string } }>('/billing/checkout', req, { silent: true })).data.url;

/**
 * POST /billing/portal: Stripe's Customer Portal (card, invoices, plan change, cancellation), on its home page or,
 * with a flow, straight on that task (the card form, the cancellation, the plan change).
 */
export const openPortal = async (flow?: TBillingPortalFlow): Promise<string> =>
  (await api.post<{ data: { url: string } }>('/billing/portal', flow ? { flow } : undefined, { silent: true })).data
    .url;

/** Send the browser to Checkout for a plan; the server's refusal (e.g. a plan without a price) is toasted. */
export function useOpenCheckout() {
  return useMutation({
    mutationFn: openCheckout,
    onSuccess: (url) => navigation.go(url),
    onError: (err) => toast.error(errorMessage(err, tr('billing.toast.checkoutFailed'))),
  });
}

export function useOpenPortal() {
  return useMutation({
    mutationFn: (flow?: TBillingPortalFlow) => openPortal(flow),
    onSuccess: (url) => navigation.go(url),
    onError: (err) => toast.error(errorMessage(err, tr('billing.toast.portalFailed'))),
  });
}
