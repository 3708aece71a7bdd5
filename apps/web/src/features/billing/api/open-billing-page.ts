import { useMutation } from '@tanstack/react-query';
import type { TBillingCheckoutRequest } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';

/** Where the browser goes for a Stripe page; replaced in tests. */
export const navigation = { go: (url: string) => window.location.assign(url) };

/** POST /billing/checkout: the Stripe Checkout page of a plan. */
export const openCheckout = async (req: TBillingCheckoutRequest): Promise<string> =>
  (await api.post<{ data: { url: string } }>('/billing/checkout', req, { silent: true })).data.url;

/** POST /billing/portal: Stripe's Customer Portal (card, invoices, plan change, cancellation). */
export const openPortal = async (): Promise<string> =>
  (await api.post<{ data: { url: string } }>('/billing/portal', undefined, { silent: true })).data.url;

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
    mutationFn: openPortal,
    onSuccess: (url) => navigation.go(url),
    onError: (err) => toast.error(errorMessage(err, tr('billing.toast.portalFailed'))),
  });
}
